//! Generator of the fourteenth blind PHI set: 28 families of clinic mail, each document written
//! in a small markup (`⟦P|Rose Bishop⟧`: code, bar, text) that [`build`] turns into the text and
//! its labels, so a label can never drift from the words it covers. Codes: P person, T phone,
//! F fax, E email, S ssn, M mrn, H health plan, A account, D date, G age, R address (street or
//! town), Z zip, U url, I ip, L licence, K card, V device, X vehicle, O room.

use opsdesk::governance::redact::Kind;

use crate::redaction_harness::{Doc, Label, Set};

pub const FAMILIES: [&str; 28] = [
    "referral",
    "consult",
    "refintake",
    "faxcover",
    "hl7adt",
    "hl7oru",
    "hl7siu",
    "voicemail",
    "vmpatient",
    "schedchat",
    "rotachat",
    "billing",
    "billreply",
    "eob",
    "homehealth",
    "hospice",
    "labreq",
    "imaging",
    "schoolrn",
    "guardian",
    "workcomp",
    "polish",
    "tagalog",
    "hindi",
    "arabic",
    "telehealth",
    "wearable",
    "ocrnote",
];

// ---------------------------------------------------------------- randomness

/// splitmix64: small, seedable, the same on every platform.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.below((hi - lo + 1) as usize) as u32
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
    fn word(&mut self, xs: &[&'static str]) -> &'static str {
        xs[self.below(xs.len())]
    }
    fn chance(&mut self, pct: usize) -> bool {
        self.below(100) < pct
    }
    fn digits(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from(b'0' + self.below(10) as u8))
            .collect()
    }
    fn upper(&mut self, n: usize) -> String {
        // No I, O or Q: they read as digits on forms and VINs leave them out.
        const L: &[u8] = b"ABCDEFGHJKLMNPRSTUVWXYZ";
        (0..n).map(|_| char::from(*self.pick(L))).collect()
    }
    fn alnum(&mut self, n: usize) -> String {
        const L: &[u8] = b"abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
        (0..n).map(|_| char::from(*self.pick(L))).collect()
    }
}

// ---------------------------------------------------------------- markup

fn m(code: char, s: &str) -> String {
    format!("⟦{code}|{s}⟧")
}
fn p(s: &str) -> String {
    m('P', s)
}
fn d(s: &str) -> String {
    m('D', s)
}

fn kind_of(code: char) -> Kind {
    match code.to_ascii_uppercase() {
        'P' => Kind::Person,
        'T' => Kind::Phone,
        'F' => Kind::Fax,
        'E' => Kind::Email,
        'S' => Kind::Ssn,
        'M' => Kind::Mrn,
        'H' => Kind::HealthPlan,
        'A' => Kind::Account,
        'D' => Kind::Date,
        'G' => Kind::Age,
        'R' => Kind::Address,
        'Z' => Kind::Zip,
        'U' => Kind::Url,
        'I' => Kind::Ip,
        'L' => Kind::License,
        'K' => Kind::Card,
        'V' => Kind::Device,
        'X' => Kind::Vehicle,
        'O' => Kind::Room,
        other => panic!("unknown label code {other:?}"),
    }
}

/// The text and labels of a marked document.
fn build(family: &'static str, marked: &str) -> Doc {
    let mut text = String::with_capacity(marked.len());
    let mut labels = Vec::new();
    let mut chars = marked.chars();
    while let Some(c) = chars.next() {
        if c != '⟦' {
            text.push(c);
            continue;
        }
        let code = chars.next().expect("a code after ⟦");
        assert_eq!(chars.next(), Some('|'), "a bar after the code");
        let start = text.len();
        for c in chars.by_ref() {
            if c == '⟧' {
                break;
            }
            assert!(c != '⟦', "nested label in {marked:?}");
            text.push(c);
        }
        assert!(text.len() > start, "empty label in {marked:?}");
        labels.push(Label {
            start,
            end: text.len(),
            kind: kind_of(code),
        });
    }
    Doc {
        family,
        text,
        labels,
    }
}

/// Applies `f` to the document's words but not to the label headers.
fn map_text(marked: &str, mut f: impl FnMut(char, &mut String)) -> String {
    let mut out = String::with_capacity(marked.len());
    let mut chars = marked.chars();
    while let Some(c) = chars.next() {
        if c == '⟦' {
            out.push(c);
            out.extend(chars.next());
            out.extend(chars.next());
        } else if c == '⟧' {
            out.push(c);
        } else {
            f(c, &mut out);
        }
    }
    out
}

fn lower(marked: &str) -> String {
    map_text(marked, |c, out| out.extend(c.to_lowercase()))
}

/// Handwriting recognised badly: a few letters read as look-alikes, a few spaces lost.
fn ocr_noise(rng: &mut Rng, marked: &str) -> String {
    map_text(marked, |c, out| {
        if !rng.chance(6) {
            out.push(c);
            return;
        }
        match c {
            'l' => out.push('1'),
            'O' => out.push('0'),
            'o' => out.push('0'),
            'e' => out.push('c'),
            'm' => out.push_str("rn"),
            'i' => out.push('l'),
            'S' => out.push('5'),
            'B' => out.push('8'),
            ',' => out.push('.'),
            _ => out.push(c),
        }
    })
}

// ---------------------------------------------------------------- words and numbers

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

const ONES: [&str; 20] = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];
const TENS: [&str; 10] = [
    "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];

fn num_words(n: u32) -> String {
    match n {
        0..=19 => ONES[n as usize].to_string(),
        20..=99 if n.is_multiple_of(10) => TENS[(n / 10) as usize].to_string(),
        20..=99 => format!("{} {}", TENS[(n / 10) as usize], ONES[(n % 10) as usize]),
        _ if n.is_multiple_of(100) => format!("{} hundred", ONES[(n / 100) as usize]),
        _ => format!(
            "{} hundred {}",
            ONES[(n / 100) as usize],
            num_words(n % 100)
        ),
    }
}

fn ordinal_words(n: u32) -> String {
    const ORD: [&str; 20] = [
        "zeroth",
        "first",
        "second",
        "third",
        "fourth",
        "fifth",
        "sixth",
        "seventh",
        "eighth",
        "ninth",
        "tenth",
        "eleventh",
        "twelfth",
        "thirteenth",
        "fourteenth",
        "fifteenth",
        "sixteenth",
        "seventeenth",
        "eighteenth",
        "nineteenth",
    ];
    match n {
        0..=19 => ORD[n as usize].to_string(),
        20 => "twentieth".into(),
        30 => "thirtieth".into(),
        _ => format!("{} {}", TENS[(n / 10) as usize], ORD[(n % 10) as usize]),
    }
}

fn ordinal_suffix(n: u32) -> &'static str {
    match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    }
}

fn year_words(y: u32) -> String {
    let (hi, lo) = (y / 100, y % 100);
    if (2000..2010).contains(&y) {
        return if lo == 0 {
            "two thousand".into()
        } else {
            format!("two thousand {}", ONES[lo as usize])
        };
    }
    let lo_w = match lo {
        0 => "hundred".to_string(),
        1..=9 => format!("oh {}", ONES[lo as usize]),
        _ => num_words(lo),
    };
    format!("{} {}", num_words(hi), lo_w)
}

/// Digits read one by one, groups split by commas; "oh" or "zero" for 0.
fn spoken_digits(rng: &mut Rng, s: &str) -> String {
    let oh = rng.chance(60);
    let mut groups: Vec<String> = Vec::new();
    for g in s
        .split(|c: char| !c.is_ascii_digit())
        .filter(|g| !g.is_empty())
    {
        let words: Vec<&str> = g
            .bytes()
            .map(|b| match b - b'0' {
                0 if oh => "oh",
                n => ONES[n as usize],
            })
            .collect();
        groups.push(words.join(" "));
    }
    groups.join(", ")
}

/// A street line as said aloud: "eighty three seventy six grant boulevard" (the unit left out).
fn spoken_street(street: &str) -> String {
    let line = street.split(", ").next().unwrap_or(street);
    let mut words = Vec::new();
    for w in line.split(' ') {
        if w.bytes().all(|b| b.is_ascii_digit()) && !w.is_empty() {
            let n: u32 = w.parse().unwrap_or(0);
            let spoken = match w.len() {
                1 | 2 => num_words(n),
                3 => format!("{} {}", ONES[(n / 100) as usize], two_digits(n % 100)),
                4 => format!("{} {}", num_words(n / 100), two_digits(n % 100)),
                _ => w
                    .bytes()
                    .map(|b| ONES[(b - b'0') as usize])
                    .collect::<Vec<_>>()
                    .join(" "),
            };
            words.push(spoken);
            continue;
        }
        let full = match w {
            "Rd" => "road",
            "St" => "street",
            "Ave" => "avenue",
            "Ln" => "lane",
            "Ct" => "court",
            "Blvd" => "boulevard",
            "Pkwy" => "parkway",
            "NE" => "northeast",
            "SW" => "southwest",
            "N" => "north",
            other => other,
        };
        words.push(full.to_lowercase());
    }
    words.join(" ")
}

/// 5 → "oh five", 0 → "hundred", 42 → "forty two": the second half of a number said in pairs.
fn two_digits(n: u32) -> String {
    match n {
        0 => "hundred".into(),
        1..=9 => format!("oh {}", ONES[n as usize]),
        _ => num_words(n),
    }
}

/// Folds the diacritics of a name for an email address or an HL7 feed that is ASCII only.
fn fold(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'á' | 'à' | 'â' | 'ä' | 'ą' | 'ã' => 'a',
            'Á' | 'À' | 'Â' | 'Ä' | 'Ą' => 'A',
            'é' | 'è' | 'ê' | 'ë' | 'ę' => 'e',
            'É' | 'È' | 'Ê' | 'Ę' => 'E',
            'í' | 'ì' | 'î' | 'ï' => 'i',
            'Í' => 'I',
            'ó' | 'ò' | 'ô' | 'ö' | 'ø' | 'õ' => 'o',
            'Ó' | 'Ö' | 'Ø' => 'O',
            'ú' | 'ù' | 'û' | 'ü' => 'u',
            'Ú' | 'Ü' => 'U',
            'ñ' | 'ń' => 'n',
            'Ñ' | 'Ń' => 'N',
            'ł' => 'l',
            'Ł' => 'L',
            'ś' => 's',
            'Ś' => 'S',
            'ż' | 'ź' => 'z',
            'Ż' | 'Ź' => 'Z',
            'ć' | 'ç' => 'c',
            'Ć' | 'Ç' => 'C',
            other => other,
        })
        .collect()
}

// ---------------------------------------------------------------- dates

#[derive(Clone, Copy)]
struct Ymd {
    y: u32,
    m: u32,
    d: u32,
}

impl Ymd {
    fn random(rng: &mut Rng, y0: u32, y1: u32) -> Ymd {
        Ymd {
            y: rng.range(y0, y1),
            m: rng.range(1, 12),
            d: rng.range(1, 28),
        }
    }
    fn visit(rng: &mut Rng) -> Ymd {
        Ymd::random(rng, 2025, 2026)
    }
    fn month(&self) -> &'static str {
        MONTHS[(self.m - 1) as usize]
    }
    fn mon(&self) -> &'static str {
        &self.month()[..3]
    }
    fn hl7(&self) -> String {
        format!("{}{:02}{:02}", self.y, self.m, self.d)
    }
    fn hl7_time(&self, rng: &mut Rng) -> String {
        format!("{}{:02}{:02}", self.hl7(), rng.range(7, 18), rng.below(60))
    }
    fn iso(&self) -> String {
        format!("{}-{:02}-{:02}", self.y, self.m, self.d)
    }
    fn us(&self) -> String {
        format!("{:02}/{:02}/{}", self.m, self.d, self.y)
    }
    fn eu_dots(&self) -> String {
        format!("{:02}.{:02}.{}", self.d, self.m, self.y)
    }
    /// Any of the written forms a clinic's mail holds.
    fn any(&self, rng: &mut Rng) -> String {
        match rng.below(11) {
            0 => self.us(),
            1 => format!("{}/{}/{}", self.m, self.d, self.y),
            2 => format!("{}/{}/{:02}", self.m, self.d, self.y % 100),
            3 => self.iso(),
            4 => format!("{} {}, {}", self.month(), self.d, self.y),
            5 => format!("{} {}, {}", self.mon(), self.d, self.y),
            6 => format!("{} {} {}", self.d, self.month(), self.y),
            7 => format!("{}-{}-{}", self.d, self.mon(), self.y),
            8 => format!("{}{}{}", self.d, self.mon().to_uppercase(), self.y),
            9 => format!("{}. {}, {}", self.mon(), self.d, self.y),
            _ => format!("{}-{:02}-{:02}", self.m, self.d, self.y),
        }
    }
    /// Month and day, no year.
    fn short(&self, rng: &mut Rng) -> String {
        match rng.below(5) {
            0 => format!("{}/{}", self.m, self.d),
            1 => format!("{} {}", self.month(), self.d),
            2 => format!("{} {}{}", self.mon(), self.d, ordinal_suffix(self.d)),
            3 => format!(
                "the {}{} of {}",
                self.d,
                ordinal_suffix(self.d),
                self.month()
            ),
            _ => format!("{} {}", self.d, self.mon()),
        }
    }
    /// As said aloud, lower case.
    fn spoken(&self, rng: &mut Rng, with_year: bool) -> String {
        let month = self.month().to_lowercase();
        let day = if rng.chance(70) {
            ordinal_words(self.d)
        } else {
            num_words(self.d)
        };
        let base = match rng.below(3) {
            0 => format!("{month} {day}"),
            1 => format!("the {} of {month}", ordinal_words(self.d)),
            _ => format!("{month} the {}", ordinal_words(self.d)),
        };
        if with_year {
            format!("{base} {}", year_words(self.y))
        } else {
            base
        }
    }
}

// ---------------------------------------------------------------- people

#[derive(Clone, Copy, PartialEq)]
enum Culture {
    Any,
    Polish,
    Filipino,
    Indian,
    Arab,
}

struct Patient {
    given: String,
    family: String,
    mi: char,
    nick: Option<&'static str>,
    female: bool,
    culture: Culture,
    dob: Ymd,
    mrn: String,
    account: String,
    plan: String,
    ssn: String,
    phone: String,
    email: String,
    street: String,
    town: &'static str,
    state: &'static str,
    zip: String,
    licence: String,
    kin_given: String,
    kin_family: String,
    /// What the relative is to the patient: "daughter", "son", "wife" …
    kin_role: &'static str,
}

impl Patient {
    fn full(&self) -> String {
        format!("{} {}", self.given, self.family)
    }
    fn age(&self) -> u32 {
        2026 - self.dob.y
    }
    fn kin_full(&self) -> String {
        format!("{} {}", self.kin_given, self.kin_family)
    }
    /// What the patient is to the relative, for "calling about my …".
    fn as_kin(&self) -> &'static str {
        match (self.kin_role, self.female) {
            ("daughter" | "son", true) => "mother",
            ("daughter" | "son", false) => "father",
            ("wife" | "husband", true) => "wife",
            ("wife" | "husband", false) => "husband",
            (_, true) => "aunt",
            (_, false) => "uncle",
        }
    }
    fn title(&self) -> &'static str {
        if self.female { "Ms." } else { "Mr." }
    }
    fn her(&self) -> &'static str {
        if self.female { "her" } else { "his" }
    }
}

const GIVEN_F: &[&str] = &[
    "Rose",
    "Hope",
    "Faith",
    "Daisy",
    "Summer",
    "Ivy",
    "June",
    "Violet",
    "Zoë",
    "Renée",
    "Siobhán",
    "Esperanza",
    "Maribel",
    "Colleen",
    "Bernadette",
    "Rosalind",
    "Amparo",
    "Dagny",
    "Leilani",
    "Precious",
    "Marigold",
    "Honor",
    "Autumn",
    "Joy",
];
const GIVEN_M: &[&str] = &[
    "Will",
    "Mark",
    "Grant",
    "Frank",
    "Rusty",
    "Hunter",
    "Miles",
    "Chase",
    "José",
    "Søren",
    "Tadhg",
    "Mateo",
    "Dmitri",
    "Eamon",
    "Florin",
    "Desmond",
    "Olusegun",
    "Ignacio",
    "Reginald",
    "Bao",
    "Cornelius",
    "Royal",
    "Forrest",
    "Clay",
];
const FAMILY_ANY: &[&str] = &[
    "Young",
    "Bishop",
    "Price",
    "Page",
    "Lane",
    "Grant",
    "Rose",
    "Hope",
    "Little",
    "Strong",
    "Moody",
    "Wise",
    "Summers",
    "O'Dowd",
    "O'Callaghan",
    "D'Angelo",
    "McAllister",
    "MacLeod",
    "McIntyre",
    "van der Berg",
    "de la Cruz",
    "di Stefano",
    "García Márquez",
    "Smith-Okonkwo",
    "Lindqvist",
    "St. Pierre",
    "LeBlanc",
    "Ferreira da Silva",
    "Björklund",
    "Okafor",
    "Castillo",
    "Nguyen",
    "Hunter",
    "Marsh",
    "Fields",
    "Winter",
];
const NICKS: &[(&str, &str)] = &[
    ("Will", "Billy"),
    ("Mark", "Marky"),
    ("Rusty", "Russ"),
    ("Reginald", "Reggie"),
    ("Cornelius", "Neil"),
    ("Bernadette", "Bernie"),
    ("Rosalind", "Roz"),
    ("Esperanza", "Espe"),
    ("Dmitri", "Dima"),
    ("Desmond", "Des"),
    ("Colleen", "Coll"),
];

const POLISH: (&[&str], &[&str], &[&str], &[&str]) = (
    &[
        "Małgorzata",
        "Agnieszka",
        "Wiesława",
        "Bożena",
        "Jadwiga",
        "Halina",
    ],
    &[
        "Łukasz",
        "Wojciech",
        "Grzegorz",
        "Zbigniew",
        "Jerzy",
        "Krzysztof",
    ],
    &[
        "Kowalczyk",
        "Wiśniewsk",
        "Zając",
        "Wróbel",
        "Szymańsk",
        "Dąbrowsk",
        "Nowak-Lis",
        "Pawlak",
    ],
    &[],
);
const FILIPINO: (&[&str], &[&str], &[&str], &[&str]) = (
    &[
        "Ligaya",
        "Maricel",
        "Rosario",
        "Luzviminda",
        "Divina",
        "Marites",
    ],
    &["Rizal", "Jun", "Bayani", "Rommel", "Dante", "Efren"],
    &[
        "Dela Peña",
        "Bautista",
        "Santos",
        "Macaraeg",
        "delos Reyes",
        "Pangan",
        "Villanueva",
        "Manalo",
    ],
    &[],
);
const INDIAN: (&[&str], &[&str], &[&str], &[&str]) = (
    &[
        "Savitri",
        "Lakshmi",
        "Anjali",
        "Kamla",
        "Sunita",
        "Meenakshi",
    ],
    &["Ravi", "Arjun", "Suresh", "Harpreet", "Venkat", "Mohan"],
    &[
        "Sharma",
        "Iyer",
        "Banerjee",
        "Kaur",
        "Venkataraman",
        "Chaudhary",
        "Nair",
        "Deshpande",
    ],
    &[],
);
const ARAB: (&[&str], &[&str], &[&str], &[&str]) = (
    &["Fatima", "Aisha", "Mariam", "Noor", "Layla", "Huda"],
    &["Ahmed", "Khalid", "Yusuf", "Omar", "Tariq", "Hassan"],
    &[
        "al-Rashid",
        "El-Amin",
        "Haddad",
        "Abdel-Malik",
        "bin Saleh",
        "Al Masri",
        "Khoury",
        "Abu-Zeid",
    ],
    &[],
);

const STREETS: &[&str] = &[
    "Willow Bend Rd",
    "NE Alder St",
    "Old Mill Lane",
    "SW Canyon Ct",
    "Rosewood Drive",
    "Hope Street",
    "Bishop Ave",
    "Quarry Hill Road",
    "N Lombard St",
    "Grant Blvd",
    "Juniper Way",
    "Harbor View Terrace",
    "Cherry Blossom Ln",
    "Pioneer Pkwy",
    "Summer Place",
];
const UNITS: &[&str] = &["Apt 3B", "Unit 12", "#305", "Apt. 7", "Ste 210", "Trlr 14"];
const TOWNS: &[(&str, &str, &str)] = &[
    ("Springfield", "OR", "974"),
    ("Sweet Home", "OR", "973"),
    ("Lebanon", "OR", "973"),
    ("Happy Valley", "OR", "970"),
    ("Sandy", "OR", "970"),
    ("Independence", "OR", "973"),
    ("Battle Ground", "WA", "986"),
    ("Camas", "WA", "986"),
    ("Forest Grove", "OR", "971"),
    ("Molalla", "OR", "970"),
    ("Vancouver", "WA", "986"),
    ("Hillsboro", "OR", "971"),
];
const AREAS: &[&str] = &["503", "971", "541", "360", "458", "564"];
const MAIL_HOSTS: &[&str] = &[
    "gmail.com",
    "yahoo.com",
    "comcast.net",
    "outlook.com",
    "icloud.com",
    "hotmail.com",
    "protonmail.com",
];
const KIN_ROLES: &[&str] = &["daughter", "son", "wife", "husband", "niece", "nephew"];

fn make_phone(rng: &mut Rng) -> String {
    format!(
        "{}{}{}",
        rng.pick(AREAS),
        rng.range(200, 989),
        rng.digits(4)
    )
}

/// A 10-digit phone in one of the ways people write it.
fn fmt_phone(rng: &mut Rng, digits: &str) -> String {
    let (a, b, c) = (&digits[..3], &digits[3..6], &digits[6..]);
    match rng.below(8) {
        0 | 1 => format!("({a}) {b}-{c}"),
        2 | 3 => format!("{a}-{b}-{c}"),
        4 => format!("{a}.{b}.{c}"),
        5 => format!("+1 {a} {b} {c}"),
        6 => format!("{a} {b} {c}"),
        _ => format!("1-{a}-{b}-{c}"),
    }
}

fn luhn_card(rng: &mut Rng) -> String {
    let mut ds: Vec<u32> = vec![*rng.pick(&[4u32, 5])];
    for _ in 0..14 {
        ds.push(rng.below(10) as u32);
    }
    // The check digit makes the doubled-from-the-right sum a multiple of ten.
    let sum: u32 = ds
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &x)| {
            if i % 2 == 0 {
                let y = x * 2;
                if y > 9 { y - 9 } else { y }
            } else {
                x
            }
        })
        .sum();
    ds.push((10 - sum % 10) % 10);
    ds.iter().map(|x| char::from(b'0' + *x as u8)).collect()
}

fn fmt_card(rng: &mut Rng, card: &str) -> String {
    let groups: Vec<&str> = (0..4).map(|i| &card[i * 4..i * 4 + 4]).collect();
    match rng.below(3) {
        0 => groups.join(" "),
        1 => groups.join("-"),
        _ => card.to_string(),
    }
}

fn vin(rng: &mut Rng) -> String {
    let mut s = rng.upper(3);
    for _ in 0..14 {
        if rng.chance(60) {
            s.push_str(&rng.digits(1));
        } else {
            s.push_str(&rng.upper(1));
        }
    }
    s
}

fn plate(rng: &mut Rng) -> String {
    match rng.below(3) {
        0 => format!("{} {}", rng.upper(3), rng.digits(3)),
        1 => format!("{}{}{}", rng.digits(1), rng.upper(3), rng.digits(3)),
        _ => format!("{}{}", rng.digits(3), rng.upper(3)),
    }
}

fn device_serial(rng: &mut Rng) -> String {
    match rng.below(4) {
        0 => format!("{}{}", rng.upper(3), rng.digits(6)),
        1 => format!("{}-{}-{}", rng.upper(2), rng.digits(6), rng.upper(1)),
        2 => rng.digits(11),
        _ => format!("{}{}{}", rng.digits(2), rng.upper(2), rng.digits(5)),
    }
}

fn ip(rng: &mut Rng) -> String {
    match rng.below(3) {
        0 => format!(
            "10.{}.{}.{}",
            rng.below(255),
            rng.below(255),
            rng.range(2, 254)
        ),
        1 => format!("192.168.{}.{}", rng.below(20), rng.range(2, 254)),
        _ => format!(
            "{}.{}.{}.{}",
            rng.pick(&[73u32, 24, 67, 98, 174, 76]),
            rng.below(255),
            rng.below(255),
            rng.range(2, 254)
        ),
    }
}

/// A share link to a photo or file of the patient's.
fn photo_url(rng: &mut Rng) -> String {
    match rng.below(4) {
        0 => format!("https://photos.app.goo.gl/{}", rng.alnum(17)),
        1 => format!("https://drive.google.com/file/d/{}/view", rng.alnum(28)),
        2 => format!(
            "https://www.dropbox.com/s/{}/wound_photo.jpg",
            rng.alnum(15)
        ),
        _ => format!("https://imgur.com/a/{}", rng.alnum(7)),
    }
}

/// A payment link whose token is the patient's.
fn pay_url(rng: &mut Rng) -> String {
    match rng.below(3) {
        0 => format!("https://pay.cedarridgebilling.com/p/{}", rng.alnum(12)),
        1 => format!("https://cedarridge.mypatientbill.com/?t={}", rng.alnum(20)),
        _ => format!(
            "https://pay.instamed.com/Form/PaymentPortal/Default?id={}",
            rng.alnum(16)
        ),
    }
}

const PUBLIC_URLS: &[&str] = &[
    "https://www.cdc.gov/flu/prevent/index.html",
    "https://medlineplus.gov/ency/article/000077.htm",
    "https://www.heart.org/en/health-topics/atrial-fibrillation",
    "https://www.cms.gov/medicare/appeals-grievances",
];

fn make_patient(rng: &mut Rng, culture: Culture) -> Patient {
    let female = rng.chance(55);
    let (gf, gm, fam): (&[&str], &[&str], &[&str]) = match culture {
        Culture::Any => (GIVEN_F, GIVEN_M, FAMILY_ANY),
        Culture::Polish => (POLISH.0, POLISH.1, POLISH.2),
        Culture::Filipino => (FILIPINO.0, FILIPINO.1, FILIPINO.2),
        Culture::Indian => (INDIAN.0, INDIAN.1, INDIAN.2),
        Culture::Arab => (ARAB.0, ARAB.1, ARAB.2),
    };
    let given = rng.pick(if female { gf } else { gm }).to_string();
    let mut family = rng.pick(fam).to_string();
    if culture == Culture::Polish && family.ends_with("sk") {
        // Polish surnames in -ski agree with the bearer.
        family.push(if female { 'a' } else { 'i' });
    }
    let nick = NICKS.iter().find(|(g, _)| *g == given).map(|(_, n)| *n);
    let dob = if rng.chance(24) {
        // A share of the very old, whose age is an identifier.
        Ymd::random(rng, 1926, 1936)
    } else {
        Ymd::random(rng, 1940, 2016)
    };
    let kin_role = *rng.pick(KIN_ROLES);
    let kin_given = rng
        .pick(if matches!(kin_role, "daughter" | "wife" | "niece") {
            gf
        } else {
            gm
        })
        .to_string();
    let kin_family = if rng.chance(70) {
        family.clone()
    } else {
        rng.pick(fam).to_string()
    };
    let (town, state, zip3) = *rng.pick(TOWNS);
    let mut street = format!("{} {}", rng.range(12, 29990), rng.pick(STREETS));
    if rng.chance(35) {
        street = format!("{street}, {}", rng.pick(UNITS));
    }
    let user = fold(&format!(
        "{}{}{}",
        given.to_lowercase(),
        rng.pick(&[".", "_", ""]),
        family.to_lowercase().replace([' ', '\''], "")
    ));
    let email = format!(
        "{}{}@{}",
        user,
        if rng.chance(40) {
            rng.digits(2)
        } else {
            String::new()
        },
        rng.pick(MAIL_HOSTS)
    );
    Patient {
        given,
        family,
        mi: char::from(b'A' + rng.below(26) as u8),
        nick,
        female,
        culture,
        dob,
        mrn: format!("{}{}", rng.pick(&["00", "10", "7", "CR"]), rng.digits(6)),
        account: rng.digits(10),
        plan: format!("{}{}", rng.upper(3), rng.digits(9)),
        ssn: format!(
            "{}-{}-{}",
            rng.range(100, 665),
            rng.digits(2),
            rng.digits(4)
        ),
        phone: make_phone(rng),
        email,
        street,
        town,
        state,
        zip: format!("{zip3}{}", rng.digits(2)),
        licence: match state {
            "WA" => format!("WDL{}", rng.alnum(9).to_uppercase()),
            _ => rng.digits(7),
        },
        kin_given,
        kin_family,
        kin_role,
    }
}

// ---------------------------------------------------------------- the practice

const PRACTICE: &str = "Cedar Ridge Family Health";
/// The practice's own mailbox: an address all the same (every address is labelled).
const BILLING_MAIL: &str = "billing@cedarridgefh.org";
const SITES: &[&str] = &[
    "Cedar Ridge North Clinic",
    "Millbrook Annex",
    "Cedar Ridge Imaging",
    "Cedar Ridge Home Health",
    "Cedar Ridge Hospice",
];
const PAYERS: &[&str] = &[
    "Blue Cross Blue Shield",
    "Aetna",
    "UnitedHealthcare",
    "Oregon Health Plan",
    "Humana",
    "Kaiser Permanente",
    "Moda Health",
    "SAIF Corporation",
];
/// (full name, first name, surname, role).
const STAFF: &[(&str, &str, &str, &str)] = &[
    ("Anneliese Korhonen", "Anneliese", "Korhonen", "MD"),
    ("Tobias Mendelsohn", "Tobias", "Mendelsohn", "MD"),
    ("Ngozi Adeyemi-Clarke", "Ngozi", "Adeyemi-Clarke", "MD"),
    ("Priya Raghunathan", "Priya", "Raghunathan", "NP"),
    ("Declan Furlong", "Declan", "Furlong", "RN"),
    ("Bettina Oyelaran", "Bettina", "Oyelaran", "scheduler"),
    ("Joaquín Ybarra", "Joaquín", "Ybarra", "MA"),
    ("Hamish Drummond", "Hamish", "Drummond", "MD"),
    ("Marisol Quintero", "Marisol", "Quintero", "billing"),
    ("Ingrid Solberg", "Ingrid", "Solberg", "MD"),
    ("Kwame Asante-Boateng", "Kwame", "Asante-Boateng", "PT"),
    ("Lourdes Pangilinan", "Lourdes", "Pangilinan", "RN"),
    ("Tomasz Wróblewski", "Tomasz", "Wróblewski", "LCSW"),
];

fn doctors() -> Vec<&'static (&'static str, &'static str, &'static str, &'static str)> {
    STAFF.iter().filter(|s| s.3 == "MD").collect()
}

const DRUGS: &[&str] = &[
    "metformin 500 mg BID",
    "apixaban 5 mg",
    "lisinopril 10 mg daily",
    "atorvastatin 40 mg",
    "levothyroxine 75 mcg",
    "sertraline 50 mg",
    "furosemide 20 mg",
    "gabapentin 300 mg TID",
    "tamsulosin 0.4 mg",
    "insulin glargine 22 units",
    "morphine sulfate 5 mg q4h PRN",
    "haloperidol 0.5 mg",
];
const CONDITIONS: &[&str] = &[
    "Parkinson's disease",
    "Hashimoto's thyroiditis",
    "Crohn's disease",
    "Bell's palsy",
    "Graves' disease",
    "type 2 diabetes",
    "atrial fibrillation",
    "COPD",
    "Addison's disease",
    "Guillain-Barré syndrome",
    "CHF",
    "Alzheimer's dementia",
];
const CODES: &[&str] = &[
    "CPT 99214",
    "CPT 93000",
    "ICD-10 E11.9",
    "ICD-10 I48.91",
    "CPT 97110",
    "ICD-10 G20",
    "HCPCS G0439",
    "ICD-10 M54.50",
];

// ---------------------------------------------------------------- context of one generation

struct Ctx {
    rng: Rng,
    pool: Vec<Patient>,
}

impl Rng {
    fn phone(&mut self, digits: &str) -> String {
        m('T', &fmt_phone(self, digits))
    }
    fn new_phone(&mut self) -> String {
        let ds = make_phone(self);
        self.phone(&ds)
    }
    fn fax(&mut self) -> String {
        let ds = make_phone(self);
        m('F', &fmt_phone(self, &ds))
    }
    fn date_any(&mut self, y: &Ymd) -> String {
        d(&y.any(self))
    }
    fn visit(&mut self) -> Ymd {
        Ymd::visit(self)
    }
    fn any_visit(&mut self) -> String {
        let v = self.visit();
        self.date_any(&v)
    }
    fn doctor(&mut self) -> String {
        let docs = doctors();
        let s = self.pick(&docs);
        format!("Dr. {}", if self.chance(50) { s.0 } else { s.2 })
    }
    fn staff_first(&mut self) -> &'static str {
        self.pick(STAFF).1
    }
    fn drug(&mut self) -> &'static str {
        self.word(DRUGS)
    }
    fn cond(&mut self) -> &'static str {
        self.word(CONDITIONS)
    }
    fn code(&mut self) -> &'static str {
        self.word(CODES)
    }
    fn payer(&mut self) -> &'static str {
        self.word(PAYERS)
    }
    fn site(&mut self) -> &'static str {
        self.word(SITES)
    }
    fn time(&mut self) -> String {
        let h = self.range(7, 17);
        let mm = *self.pick(&[0u32, 15, 30, 45]);
        if self.chance(50) {
            format!("{h}:{mm:02}")
        } else {
            format!(
                "{}:{mm:02} {}",
                if h > 12 { h - 12 } else { h },
                if h >= 12 { "pm" } else { "am" }
            )
        }
    }
    fn room(&mut self) -> String {
        let r = match self.below(4) {
            0 => format!("{}", self.range(101, 499)),
            1 => format!("{}{}", self.range(2, 6), self.pick(&["A", "B", "C"])),
            2 => format!("{}-{}", self.range(201, 420), self.pick(&["1", "2"])),
            _ => format!("{}", self.range(1, 24)),
        };
        m('O', &r)
    }
}

impl Ctx {
    fn patient(&mut self, culture: Culture) -> usize {
        let ids: Vec<usize> = (0..self.pool.len())
            .filter(|&i| culture == Culture::Any || self.pool[i].culture == culture)
            .collect();
        *self.rng.pick(&ids)
    }
    /// A school-age patient when the pool has one.
    fn child(&mut self) -> usize {
        let ids: Vec<usize> = (0..self.pool.len())
            .filter(|&i| self.pool[i].dob.y >= 2010)
            .collect();
        if ids.is_empty() {
            self.patient(Culture::Any)
        } else {
            *self.rng.pick(&ids)
        }
    }
    /// "42 Willow Bend Rd" / town / ZIP as a postal block on one or two lines.
    fn address(&mut self, i: usize, one_line: bool) -> String {
        let pt = &self.pool[i];
        let sep = if one_line { ", " } else { "\n" };
        format!(
            "{}{sep}{}, {} {}",
            m('R', &pt.street),
            m('R', pt.town),
            pt.state,
            m('Z', &pt.zip)
        )
    }
    /// The patient's age when over 89, or a plain age that is no identifier.
    fn age_phrase(&mut self, i: usize) -> String {
        let a = self.pool[i].age();
        let shown = if a > 89 {
            m('G', &a.to_string())
        } else {
            a.to_string()
        };
        match self.rng.below(3) {
            0 => format!("{shown}-year-old"),
            1 => format!("{shown} y/o"),
            _ => format!("{shown} yo"),
        }
    }
    fn email(&self, i: usize) -> String {
        m('E', &self.pool[i].email)
    }
    fn name_any(&mut self, i: usize) -> String {
        let pt = &self.pool[i];
        match self.rng.below(5) {
            0 => format!("{}, {}", p(&pt.family), p(&pt.given)),
            1 => format!(
                "{}, {}.",
                p(&pt.family),
                p(&format!("{} {}", pt.given, pt.mi))
            ),
            2 => p(&format!("{} {}. {}", pt.given, pt.mi, pt.family)),
            3 => p(&pt.family.to_uppercase()) + ", " + &p(&pt.given.to_uppercase()),
            _ => p(&pt.full()),
        }
    }
}

// ---------------------------------------------------------------- families: referral genre

fn referral(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let date = c.rng.any_visit();
    let dob = c.rng.date_any(&c.pool[i].dob.clone());
    let name = c.name_any(i);
    let age = c.age_phrase(i);
    let one_line = c.rng.chance(50);
    let addr = c.address(i, one_line);
    let ph = c.rng.phone(&c.pool[i].phone.clone());
    let fax = c.rng.fax();
    let (doc, spec) = (c.rng.doctor(), c.rng.doctor());
    let (drug, cond, drug2) = (c.rng.drug(), c.rng.cond(), c.rng.drug());
    let pt = &c.pool[i];
    let (given, fam, title, her) = (pt.given.clone(), pt.family.clone(), pt.title(), pt.her());
    let plan = m('H', &pt.plan);
    let mrn = m('M', &pt.mrn);
    let payer = c.rng.payer();
    let appt = c.rng.any_visit();
    match c.rng.below(3) {
        0 => format!(
            "{PRACTICE}\n{}\nFax {fax}\n\n{date}\n\n{spec}\nRiverside Heart Associates\n\n\
             RE: {name}   DOB: {dob}   MRN {mrn}\n{addr}\nPhone: {ph}\nInsurance: {payer}, member {plan}\n\n\
             Dear colleague,\n\nI would be grateful if you would see this {age} {} with {cond}, \
             on {drug} and {drug2}. {title} {} reports palpitations since {appt}. \
             {} daughter prefers calls after 3 pm.\n\nKind regards,\n{doc}\n",
            c.rng.site(),
            if pt.female { "woman" } else { "man" },
            p(&fam),
            her[..1].to_uppercase() + &her[1..]
        ),
        1 => format!(
            "To: {spec} | From: {doc}\nDate sent: {date}\nUrgency: routine\n\
             Patient ........ {name}\nBorn ........... {dob}\nChart no. ...... {mrn}\n\
             Plan ........... {payer} / {plan}\nHome ........... {addr}\nCell ........... {ph}\n\
             Reason: {cond}, worsening on {drug}. Seen by us {appt}.\n\
             {} is hard of hearing, please speak with {} {} when booking.\n",
            p(&given),
            pt.kin_role
                .replace("niece", "her niece")
                .replace("nephew", "his nephew"),
            p(&pt.kin_full()),
        ),
        _ => format!(
            "Hi {spec},\n\nwould you take {title} {} (dob {dob}, our MRN {mrn})? {age}, \
             {cond}, failed {drug}. last seen {appt}, imaging done at {} on {date}. \
             you can reach {} at {ph} or {} {} {}.\n\n{doc}\n{PRACTICE} · fax {fax}\n",
            p(&fam),
            c.rng.site(),
            if pt.female { "her" } else { "him" },
            her,
            pt.kin_role,
            p(&pt.kin_given),
        ),
    }
}

fn consult(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let seen = c.rng.any_visit();
    let fu = c.rng.visit();
    let fu_s = d(&fu.short(&mut c.rng));
    let dob = c.rng.date_any(&c.pool[i].dob.clone());
    let (doc, spec) = (c.rng.doctor(), c.rng.doctor());
    let cond = c.rng.cond();
    let drug = c.rng.drug();
    let code = c.rng.code();
    let age = c.age_phrase(i);
    let fax = c.rng.fax();
    let ph = c.rng.new_phone();
    let pt = &c.pool[i];
    let nm = if c.rng.chance(50) {
        format!("{} {}", pt.title(), p(&pt.family))
    } else {
        p(&pt.given)
    };
    let dev = m('V', &device_serial(&mut c.rng));
    match c.rng.below(2) {
        0 => format!(
            "Riverside Heart Associates — consultation\n\nDear {doc},\n\nThank you for referring \
             {} ({dob}), whom I saw on {seen}. {nm} is a {age} with {cond}. ECG ({code}) showed \
             sinus rhythm. A loop recorder was placed, serial {dev}. I have started {drug}. \
             Follow-up on {fu_s}.\n\nYours sincerely,\n{spec}\nTel {ph} | Fax {fax}\ncc: {}\n",
            p(&pt.full()),
            p(&pt.full()),
        ),
        _ => format!(
            "CONSULT NOTE\nPt: {}\nDOB {dob}\nDate of service {seen}\nReferring: {doc}\n\n\
             Impression: {cond}.\nPlan: {drug}; recheck {fu_s}; device interrogation (SN {dev}).\n\
             Spoke with {} {} by phone ({ph}).\n{spec}\n",
            p(&format!("{} {} {}", pt.given, pt.mi, pt.family)),
            pt.kin_role,
            p(&pt.kin_full()),
        ),
    }
}

fn refintake(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let rec = c.rng.any_visit();
    let dob = c.pool[i].dob;
    let dob_s = d(&dob.us());
    let addr = c.address(i, true);
    let ph = c.rng.phone(&c.pool[i].phone.clone());
    let kin_ph = c.rng.new_phone();
    let em = c.email(i);
    let payer = c.rng.payer();
    let cond = c.rng.cond();
    let who = c.rng.staff_first();
    let pt = &c.pool[i];
    let mut fields = vec![
        format!("Last Name: {}", p(&pt.family)),
        format!("First Name: {}", p(&pt.given)),
        format!("MI: {}", p(&pt.mi.to_string())),
        format!("DOB: {dob_s}"),
        format!("Address: {addr}"),
        format!("Primary phone: {ph}"),
        format!("Email: {em}"),
        format!("Insurance: {payer}"),
        format!("Member ID: {}", m('H', &pt.plan)),
        format!("SSN: {}", m('S', &pt.ssn)),
        format!(
            "Emergency contact: {} ({}) {kin_ph}",
            p(&pt.kin_full()),
            pt.kin_role
        ),
        format!("Diagnosis: {cond}"),
    ];
    // Each web form orders its fields its own way.
    let k = c.rng.below(fields.len());
    fields.rotate_left(k);
    format!(
        "Subject: FW: New referral submitted via portal — {}\n\n{who}, pls triage.\n\n\
         ---------- Forwarded message ---------\nFrom: {}\nDate: {rec}\n\n{}\n\n\
         Submitted from IP {}\n",
        p(&pt.family),
        m('E', "referrals@cedarridgefh.org"),
        fields.join("\n"),
        m('I', &ip(&mut c.rng))
    )
}

fn faxcover(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let date = c.rng.any_visit();
    let fax1 = c.rng.fax();
    let fax2 = c.rng.fax();
    let ph = c.rng.new_phone();
    let dob = c.rng.date_any(&c.pool[i].dob.clone());
    let pages = c.rng.range(2, 14);
    let doc = c.rng.doctor();
    let code = c.rng.code();
    let pt = &c.pool[i];
    let nm = if c.rng.chance(50) {
        format!(
            "{}, {}",
            p(&pt.family.to_uppercase()),
            p(&pt.given.to_uppercase())
        )
    } else {
        p(&pt.full())
    };
    format!(
        "F A X   C O V E R\n{PRACTICE}\n\nTO: Prior Auth Dept, {}   FAX: {fax1}\nFROM: {doc}   FAX: {fax2}  PH: {ph}\n\
         DATE: {date}     PAGES (incl. cover): {pages}\n\nRE: {nm} / DOB {dob} / Acct {}\n\
         Request for {code}. Please call with questions.\n\nCONFIDENTIALITY NOTICE: This facsimile \
         contains protected health information ...\n",
        c.rng.payer(),
        m('A', &pt.account)
    )
}

// ---------------------------------------------------------------- families: HL7 v2

fn hl7_name(pt: &Patient, fold_it: bool) -> String {
    let f = |s: &str| {
        let up = s.to_uppercase();
        if fold_it { fold(&up) } else { up }
    };
    format!(
        "{}^{}^{}",
        p(&f(&pt.family)),
        p(&f(&pt.given)),
        p(&pt.mi.to_string())
    )
}

fn hl7_addr(pt: &Patient) -> String {
    format!(
        "{}^{}^{}^{}",
        // XAD: street ^ other designation (the unit) ^ city ^ state ^ zip.
        match pt.street.to_uppercase().split_once(", ") {
            Some((street, unit)) => format!("{}^{}", m('R', street), m('R', unit)),
            None => format!("{}^", m('R', &pt.street.to_uppercase())),
        },
        m('R', &pt.town.to_uppercase()),
        pt.state,
        m('Z', &pt.zip)
    )
}

fn msh(c: &mut Ctx, kind: &str, when: &Ymd) -> String {
    let ts = d(&when.hl7_time(&mut c.rng));
    format!(
        "MSH|^~\\&|EPIC|CRFH|OPSDESK|CRFH|{ts}||{kind}|MSG{}|P|2.5.1",
        c.rng.digits(7)
    )
}

fn pid(c: &mut Ctx, i: usize) -> String {
    let fold_it = c.rng.chance(50);
    let pt = &c.pool[i];
    let ph = pt.phone.clone();
    let ph_s = format!("({}){}-{}", &ph[..3], &ph[3..6], &ph[6..]);
    format!(
        "PID|1||{}^^^CRFH^MR~{}^^^SSA^SS||{}||{}|{}|||{}||{}^PRN^PH~^NET^Internet^{}||||||{}|{}|{}^{}",
        m('M', &pt.mrn),
        m('S', &pt.ssn),
        hl7_name(pt, fold_it),
        d(&pt.dob.hl7()),
        if pt.female { "F" } else { "M" },
        hl7_addr(pt),
        m('T', &ph_s),
        m('E', &pt.email),
        m('A', &pt.account),
        m('S', &pt.ssn),
        m('L', &pt.licence),
        pt.state
    )
}

fn hl7adt(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let when = c.rng.visit();
    let event = *c.rng.pick(&["ADT^A04", "ADT^A08", "ADT^A01"]);
    let head = msh(c, event, &when);
    let pid = pid(c, i);
    let kin_ph = c.rng.new_phone();
    let ev = d(&when.hl7_time(&mut c.rng));
    let room = c.rng.room();
    let bed = m('O', c.rng.word(&["A", "B", "1", "2"]));
    let payer = c.rng.payer();
    let grp = c.rng.digits(6);
    let pt = &c.pool[i];
    let kin = format!(
        "{}^{}",
        p(&pt.kin_family.to_uppercase()),
        p(&pt.kin_given.to_uppercase())
    );
    let seg = [
        head,
        format!("EVN|A04|{ev}"),
        pid,
        format!(
            "NK1|1|{kin}|{}|||{}",
            &pt.kin_role[..3].to_uppercase(),
            kin_ph
        ),
        format!("PV1|1|I|4W^{room}^{bed}^CRFH||||4471^KORHONEN^ANNELIESE^^^DR|||MED"),
        format!(
            "IN1|1|PLAN01|77|{payer}|PO BOX 4410^^PORTLAND^OR^97208||||GRP{grp}|||||||{}|SEL|{}|||||||||||||||||{}",
            hl7_name(pt, true),
            d(&pt.dob.hl7()),
            m('H', &pt.plan)
        ),
        format!(
            "NTE|1||Pt prefers {} \\T\\ {} be called; allergic to sulfa",
            pt.kin_role,
            p(&pt.kin_given.to_uppercase())
        ),
    ];
    seg.join(if c.rng.chance(50) { "\r" } else { "\n" })
}

fn hl7oru(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let when = c.rng.visit();
    let head = msh(c, "ORU^R01", &when);
    let pid = pid(c, i);
    let coll = d(&when.hl7_time(&mut c.rng));
    let res = d(&when.hl7_time(&mut c.rng));
    let ord = c.rng.digits(8);
    let ph = c.rng.new_phone();
    let pt = &c.pool[i];
    let glucose = c.rng.range(70, 240);
    let note = match c.rng.below(3) {
        0 => format!(
            "Critical value called to {} {} at {ph}, read back OK",
            pt.kin_role,
            p(&pt.kin_full())
        ),
        1 => format!("Specimen recollected; pt {} states fasting", p(&pt.family)),
        _ => format!("Result faxed to {} 1400", d(&when.iso())),
    };
    [
        head,
        pid,
        format!("ORC|RE|ORD{ord}|LAB{ord}||CM"),
        format!(
            "OBR|1|ORD{ord}|LAB{ord}|80053^COMPREHENSIVE METABOLIC PANEL^CPT|||{coll}|||||||{res}"
        ),
        format!("OBX|1|NM|2345-7^GLUCOSE^LN||{glucose}|mg/dL|70-99|H|||F|||{res}"),
        "OBX|2|NM|2160-0^CREATININE^LN||1.1|mg/dL|0.6-1.3|N|||F".to_string(),
        format!("NTE|1||{note}"),
    ]
    .join("\r")
}

fn hl7siu(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let when = c.rng.visit();
    if c.rng.chance(40) {
        // DFT^P03: a charge, with the account and the service date.
        let head = msh(c, "DFT^P03", &when);
        let pid = pid(c, i);
        let svc = d(&when.hl7_time(&mut c.rng));
        let code = c.rng.pick(&["99214", "93000", "97110", "G0439"]);
        return [
            head,
            pid,
            format!("FT1|1|||{svc}||CG|{code}^OFFICE VISIT^CPT|||1|||||||||||E11.9^DIABETES^I10"),
        ]
        .join("\r");
    }
    let head = msh(c, "SIU^S12", &when);
    let pid = pid(c, i);
    let start = d(&when.hl7_time(&mut c.rng));
    let room = c.rng.room();
    let site = c.rng.site();
    [
        head,
        format!(
            "SCH|A{}|A{}|||||FOLLOWUP^Follow up|30|MIN|^^30^{start}",
            c.rng.digits(6),
            c.rng.digits(6)
        ),
        pid,
        "AIP|1||4471^KORHONEN^ANNELIESE|ATTENDING".to_string(),
        format!("AIL|1||EXAM^{room}^^{site}"),
        "NTE|1||Bring glucose log and med list".to_string(),
    ]
    .join("\n")
}

// ---------------------------------------------------------------- families: voicemail

fn spoken_phone(c: &mut Ctx, digits: &str) -> String {
    let s = spoken_digits(
        &mut c.rng,
        &format!("{}-{}-{}", &digits[..3], &digits[3..6], &digits[6..]),
    );
    m('T', &s)
}

fn spelled(c: &mut Ctx, name: &str) -> String {
    let letters: Vec<String> = fold(name)
        .chars()
        .filter(|ch| ch.is_ascii_alphabetic())
        .map(|ch| ch.to_ascii_lowercase().to_string())
        .collect();
    let sep = c.rng.pick(&["-", " ", ". "]);
    p(&letters.join(sep))
}

fn voicemail(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let ph = c.pool[i].phone.clone();
    let sp_ph = spoken_phone(c, &ph);
    let dob = c.pool[i].dob;
    let dob_s = d(&dob.spoken(&mut c.rng, true));
    let appt = c.rng.visit();
    let appt_s = d(&appt.spoken(&mut c.rng, false));
    let drug = c.rng.drug();
    let sp = spelled(c, &c.pool[i].family.clone());
    let age = c.pool[i].age();
    let pt = &c.pool[i];
    let age_s = if age > 89 {
        format!(
            "{} {} now",
            if pt.female { "she's" } else { "he's" },
            m('G', &num_words(age))
        )
    } else {
        "not getting any younger".to_string()
    };
    let street = spoken_street(&pt.street);
    let pharm_digits = make_phone(&mut c.rng);
    let pharm_ph = spoken_phone(c, &pharm_digits);
    let pt = &c.pool[i];
    let body = match c.rng.below(4) {
        3 => format!(
            "voicemail — pharmacy line\n\"hi this is the pharmacy at fred meyer on sandy boulevard \
             calling for dr korhonen about a mutual patient {} {}, born {dob_s}, lives at {}. \
             we got a script for {drug} but insurance wants a prior auth. our number is {pharm_ph}, \
             that's {pharm_ph}. thanks\"\n",
            p(&pt.given),
            p(&pt.family),
            m('R', &street),
        ),
        0 => format!(
            "voicemail transcription (automated)\nfrom: {sp_ph}\n\n\"hi um this is {} calling about my {} {} \
             {} date of birth {dob_s} uh {} was supposed to be seen {appt_s} and we never got a call \
             back about the {drug} refill. last name is {sp}. {age_s}. please call me back at {sp_ph} thank you bye\"\n",
            p(&pt.kin_given),
            pt.as_kin(),
            p(&pt.given),
            p(&pt.family),
            if pt.female { "she" } else { "he" },
        ),
        1 => format!(
            "vm 1 of 2 — transcript confidence low\n\"yeah hi it's {} {} um the {} of {} {}? \
             we moved {} appointment to {appt_s} but the letter still says the old one. my number \
             is {sp_ph}. it's {sp}. ok thanks\"\n",
            p(&pt.kin_given),
            p(&pt.kin_family),
            pt.kin_role,
            p(&pt.given),
            p(&pt.family),
            pt.her(),
        ),
        _ => format!(
            "transcribed voicemail\n\"good morning this is {} um {}'s {} ... {} is in the hospital since \
             {appt_s}, room {}, and they want records sent. birthday {dob_s}. you can call {sp_ph}, \
             again {sp_ph}.\"\n",
            p(&pt.kin_full()),
            p(&pt.given),
            pt.kin_role,
            p(&pt.given),
            m(
                'O',
                &num_words(c.rng.range(2, 9) * 100 + c.rng.range(1, 30))
            )
        ),
    };
    lower(&body)
}

fn vmpatient(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let ph = c.pool[i].phone.clone();
    let sp_ph = spoken_phone(c, &ph);
    let dob = c.pool[i].dob;
    let dob_s = if c.rng.chance(50) {
        d(&dob.spoken(&mut c.rng, true))
    } else {
        d(&format!(
            "{} {} {}",
            spoken_digits(&mut c.rng, &format!("{:02}", dob.m)),
            spoken_digits(&mut c.rng, &format!("{:02}", dob.d)),
            year_words(dob.y)
        ))
    };
    let mrn_sp = m(
        'M',
        &spoken_digits(&mut c.rng, &c.pool[i].mrn.replace("CR", "")),
    );
    let sp = spelled(c, &c.pool[i].family.clone());
    let when = c.rng.visit();
    let when_s = d(&when.spoken(&mut c.rng, false));
    let drug = c.rng.drug();
    let pt = &c.pool[i];
    let nick = pt.nick.unwrap_or(&pt.given).to_string();
    // The very old say their age; nobody else's is an identifier.
    let age_said = if pt.age() > 89 {
        format!(" i'm {} years old,", m('G', &num_words(pt.age())))
    } else {
        String::new()
    };
    let body = match c.rng.below(3) {
        0 => format!(
            "\"hey it's {} {} spelled {sp} my birthday is {dob_s}. i need to cancel for {when_s} \
             cause my ride fell through.{age_said} chart number {mrn_sp} i think. call me {sp_ph}\"",
            p(&nick),
            p(&pt.family)
        ),
        1 => format!(
            "caller said: \"hi yes my name is {} {} ... {sp} ... and i got a bill for {when_s} that \
             my insurance should have paid, my member number is {}. the number here is {sp_ph}.\"",
            p(&pt.given),
            p(&pt.family),
            m('H', &pt.plan.to_lowercase())
        ),
        _ => format!(
            "\"this message is for nurse declan. this is {} {}, date of birth {dob_s},{age_said} i ran out of \
             my {drug} on {when_s} and the pharmacy says they need a new script. {sp_ph}. \
             thanks {}\"",
            p(&pt.given),
            p(&pt.family),
            p(&nick)
        ),
    };
    lower(&format!(
        "New voicemail from {} at {}\nTranscript:\n{body}\n",
        m('T', &fmt_phone(&mut c.rng, &ph)),
        c.rng.time()
    ))
}

// ---------------------------------------------------------------- families: staff chats

fn schedchat(c: &mut Ctx) -> String {
    let mut lines = Vec::new();
    let n = c.rng.range(3, 6);
    for _ in 0..n {
        let i = c.patient(Culture::Any);
        let who = c.rng.staff_first();
        let t = c.rng.time();
        let slot = c.rng.visit();
        // "the 14th of August" reads "wants the 14th of August slot" after its article.
        let slot_s = d(slot.short(&mut c.rng).trim_start_matches("the "));
        let room = c.rng.room();
        let doc = c.rng.doctor();
        let kin_ph = c.rng.new_phone();
        let pt = &c.pool[i];
        let initial = pt
            .family
            .chars()
            .next()
            .unwrap_or('x')
            .to_lowercase()
            .to_string();
        let line = match c.rng.below(9) {
            0 => format!(
                "[{t}] {who}: can someone move {} {} from {slot_s} to the afternoon? {doc} is out",
                p(&pt.given),
                p(&pt.family)
            ),
            1 => format!(
                "[{t}] {who}: {} {} in {room} is asking for a blanket lol",
                if pt.female { "mrs" } else { "mr" },
                p(&initial)
            ),
            2 => format!(
                "[{t}] {who}: {} ({}) no-showed again, 3rd time",
                p(&pt.nick.unwrap_or(&pt.given).to_lowercase()),
                p(&pt.family)
            ),
            3 => format!(
                "[{t}] {who}: fyi {}'s {} called, wants the {slot_s} slot",
                p(&pt.family.to_uppercase()),
                pt.kin_role
            ),
            4 => format!(
                "[{t}] {who}: double booked {slot_s} — {} and {} both at 9:30?",
                p(&pt.full()),
                p(&pt.kin_full())
            ),
            5 => format!(
                "[{t}] {who}: {}'s {} is in the lobby for {} — pls text {kin_ph} when done",
                p(&pt.given.to_lowercase()),
                pt.kin_role,
                if pt.female { "her" } else { "him" }
            ),
            6 => format!(
                "[{t}] {who}: whoever has {room}: that's {} {}, hard of hearing, speak up 🙏",
                pt.title().to_lowercase(),
                p(&pt.family)
            ),
            7 => format!(
                "[{t}] {who}: pls call back {} re {slot_s}, {} said they'd confirm",
                p(&pt.kin_full()),
                p(&pt.kin_given)
            ),
            _ => format!("[{t}] {who}: lunch order going in, anyone want tacos"),
        };
        lines.push(line);
    }
    format!("#front-desk — {}\n{}\n", c.rng.site(), lines.join("\n"))
}

fn rotachat(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let j = c.patient(Culture::Any);
    let a = c.rng.staff_first();
    let b = c.rng.staff_first();
    let day = c.rng.visit();
    let day_s = d(day.short(&mut c.rng).trim_start_matches("the "));
    let day2 = c.rng.any_visit();
    let (r1, r2) = (c.rng.room(), c.rng.room());
    let ph = c.rng.new_phone();
    let veh = m('X', &plate(&mut c.rng));
    let (pi, pj) = (&c.pool[i], &c.pool[j]);
    format!(
        "Teams chat — on-call rota\n{a}: can you swap my {day_s} evening? kid's recital\n\
         {b}: yes if you take {day2}\n{a}: deal. handover: {} in bed {r1} still on the drip, \
         {} {} in {r2} waiting for transport, {} {} picking {} up (silver civic {veh}), cell {ph}\n\
         {b}: 👍 also {}'s family says the pharmacy lost the script\n",
        p(&pi.family),
        pj.title(),
        p(&pj.family),
        pj.kin_role
            .replace("niece", "the niece")
            .replace("nephew", "the nephew"),
        p(&pj.kin_given),
        if pj.female { "her" } else { "him" },
        p(&pi.given),
    )
}

// ---------------------------------------------------------------- families: billing

fn billing(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let stmt = c.rng.any_visit();
    let due = c.rng.any_visit();
    let svc1 = c.rng.visit();
    let svc2 = c.rng.visit();
    let (s1, s2) = (d(&svc1.us()), d(&svc2.us()));
    let addr = c.address(i, false);
    let url = m('U', &pay_url(&mut c.rng));
    let payer = c.rng.payer();
    let ph = c.rng.new_phone();
    let autopay = if c.rng.chance(40) {
        let card = luhn_card(&mut c.rng);
        format!(
            "Autopay card on file: {}\n",
            m('K', &fmt_card(&mut c.rng, &card))
        )
    } else {
        String::new()
    };
    let pt = &c.pool[i];
    let amt = c.rng.range(40, 900);
    let name = if c.rng.chance(50) {
        p(&pt.full().to_uppercase())
    } else {
        p(&pt.full())
    };
    format!(
        "{PRACTICE} — Patient Statement\nStatement date: {stmt}      Account #: {}\n\n{name}\n{addr}\n\n\
         DATE OF SVC   DESCRIPTION                 CHARGES   INS PAID\n{s1}    Office visit (99214)        \
         $210.00   $168.00\n{s2}    ECG (93000)                 $65.00    $0.00\n\n\
         Insurance: {payer}  Member ID {}\nAmount due ${amt}.00 by {due}\nPay online: {url}\n{autopay}\
         Questions? Marisol Quintero, billing office {ph} (Mon-Fri 8:00-4:30)\n",
        m('A', &pt.account),
        m('H', &pt.plan),
    )
}

fn billreply(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let sent = c.rng.any_visit();
    let sent2 = c.rng.any_visit();
    let svc = c.rng.visit();
    let svc_s = d(&svc.short(&mut c.rng));
    let card = luhn_card(&mut c.rng);
    let card_s = m('K', &fmt_card(&mut c.rng, &card));
    let ph = c.rng.phone(&c.pool[i].phone.clone());
    let claim = m(
        'A',
        &format!("CLM-{}-{}", c.rng.range(2025, 2026), c.rng.digits(7)),
    );
    let em = c.email(i);
    let pt = &c.pool[i];
    let from = format!("{} <{em}>", p(&pt.full()));
    let payer = c.rng.payer();
    match c.rng.below(2) {
        0 => format!(
            "From: {from}\nTo: {}\nSent: {sent}\nSubject: RE: your balance — acct {}\n\n\
             I was told on the phone the {svc_s} visit was covered by {payer}. The claim {claim} \
             shows denied. I already paid $45 with my card {card_s} at the desk!! Please call {ph}.\n\n\
             {}\n\n> On {sent2}, Marisol Quintero wrote:\n> Dear {} {},\n> our records show a balance of $312.40.\n",
            m('E', BILLING_MAIL),
            m('A', &pt.account),
            p(&pt.given),
            pt.title(),
            p(&pt.family),
        ),
        _ => format!(
            "From: Marisol Quintero <{}>\nTo: {from}\nDate: {sent}\n\n\
             Hi {},\n\nthanks for the call. I set up a payment plan of $50/month on account {}, \
             first draft {svc_s} from the card ending in {}. {payer} reprocessed claim {claim}.\n\n\
             Marisol\n\n-----Original Message-----\nFrom: {from}\nSent: {sent2}\n\ncan i do a payment plan? \
             money is tight since my {} passed\n",
            m('E', BILLING_MAIL),
            p(&pt.given),
            m('A', &pt.account),
            &card[12..],
            if pt.female { "husband" } else { "wife" },
        ),
    }
}

fn eob(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let issued = c.rng.any_visit();
    let svc = c.rng.any_visit();
    let payer = c.rng.payer();
    let addr = c.address(i, false);
    let claim = m('A', &c.rng.digits(12));
    let pt = &c.pool[i];
    let dep = if c.rng.chance(40) {
        format!(
            "Patient: {}   Subscriber: {}\n",
            p(&pt.kin_full()),
            p(&pt.full())
        )
    } else {
        format!("Patient: {}\n", p(&pt.full()))
    };
    format!(
        "{payer}\nEXPLANATION OF BENEFITS — THIS IS NOT A BILL\n\n{}\n{addr}\n\nDate issued: {issued}\n\
         Member ID: {}   Group: {}\n{dep}Claim number: {claim}\nProvider: {PRACTICE}\n\n\
         Service date   Service        Billed    Allowed   Plan paid   You owe\n{svc}   \
         {}    $185.00   $122.40   $97.92      $24.48\n\nTo appeal see {}\n",
        p(&pt.full().to_uppercase()),
        m('H', &pt.plan),
        c.rng.digits(6),
        c.rng.code(),
        c.rng.pick(PUBLIC_URLS),
    )
}

// ---------------------------------------------------------------- families: new

fn homehealth(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let visit = c.rng.any_visit();
    let addr = c.address(i, true);
    let age = c.age_phrase(i);
    let dev = m('V', &device_serial(&mut c.rng));
    let drug = c.rng.drug();
    let cond = c.rng.cond();
    let next = c.rng.visit();
    let next_s = d(&next.short(&mut c.rng));
    let kin_ph = c.rng.new_phone();
    let url = m('U', &photo_url(&mut c.rng));
    let pt = &c.pool[i];
    format!(
        "Cedar Ridge Home Health — Skilled Nursing Visit\nClient: {}   Visit: {visit}\nLocation: {addr}\n\
         Clinician: Lourdes Pangilinan RN   Time in {} out {}\n\n\
         S: {age} with {cond}. {} {} reports poor sleep.\nO: BP 142/88, SpO2 93% on 2L via concentrator SN {dev}. \
         Foley in place.\nA/P: continue {drug}. Wound photo uploaded {url}. Next visit {next_s}. \
         Caregiver {} ({}) {kin_ph}; gate code 4471#.\n",
        p(&pt.full()),
        c.rng.time(),
        c.rng.time(),
        pt.title(),
        p(&pt.family),
        p(&pt.kin_given),
        pt.kin_role,
    )
}

fn hospice(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let adm = c.rng.any_visit();
    let death = c.rng.visit();
    let death_s = d(&death.any(&mut c.rng));
    let dob = c.rng.date_any(&c.pool[i].dob.clone());
    let kin_ph = c.rng.new_phone();
    let drug = c.rng.drug();
    let age = c.pool[i].age();
    let pt = &c.pool[i];
    let age_s = if age > 89 {
        format!("aged {}", m('G', &age.to_string()))
    } else {
        format!("aged {age}")
    };
    match c.rng.below(2) {
        0 => format!(
            "Cedar Ridge Hospice — bereavement referral\n\nDecedent: {} ({age_s}), DOB {dob}, admitted {adm}, \
             died {death_s} at home.\nPrimary survivor: {} {} ({}), {kin_ph}.\nNotes: {} asked \
             that {} {} be mentioned at the memorial. Chaplain visit declined.\nMedical director: Dr. Ingrid Solberg\n",
            p(&pt.full()),
            p(&pt.kin_given),
            p(&pt.kin_family),
            pt.kin_role,
            p(&pt.kin_given),
            pt.her(),
            p(pt.nick.unwrap_or(&pt.given)),
        ),
        _ => format!(
            "IDT note — hospice\nPt {} {}, {age_s}. Comfort meds: {drug}; haloperidol PRN. \
             Cheyne-Stokes breathing noted. Family ({} {}) at bedside since {adm}. Plan: \
             continuous care if actively dying. Recert due {death_s}.\n",
            p(&pt.family),
            p(&pt.given),
            pt.kin_role,
            p(&pt.kin_given),
        ),
    }
}

fn labreq(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let coll = c.rng.any_visit();
    let dob = c.pool[i].dob;
    let dob_s = d(&dob.iso());
    let ph = c.rng.phone(&c.pool[i].phone.clone());
    let doc = c.rng.doctor();
    let pt = &c.pool[i];
    let sex = if pt.female { "F" } else { "M" };
    format!(
        "LAB REQUISITION  Req# {}\nOrdering: {doc}   Acct: CRFH-01\n\
         PATIENT  {} , {}   SEX {sex}   DOB {dob_s}\nMRN {}    Phone {ph}\nBill to: {}  Policy {}\n\
         Tests: CMP (80053), HbA1c (83036), TSH (84443)\nDx: E11.9, E03.9\nCollection date/time: {coll} {}\n\
         Fasting: Y   Drawn by: Joaquín Ybarra MA\n",
        c.rng.digits(8),
        p(&pt.family.to_uppercase()),
        p(&pt.given.to_uppercase()),
        m('M', &pt.mrn),
        c.rng.payer(),
        m('H', &pt.plan),
        c.rng.time()
    )
}

fn imaging(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let exam = c.rng.any_visit();
    let prior = c.rng.any_visit();
    let dob = c.rng.date_any(&c.pool[i].dob.clone());
    let acc = c.rng.digits(9);
    let age = c.age_phrase(i);
    let dev = m('V', &device_serial(&mut c.rng));
    let pt = &c.pool[i];
    format!(
        "CEDAR RIDGE IMAGING\nEXAM: CT HEAD WITHOUT CONTRAST    Accession {acc}\nPATIENT: {}   MRN: {}   DOB: {dob}\n\
         Exam date: {exam}\n\nHISTORY: {age}, fall at home.\nCOMPARISON: {prior}.\nFINDINGS: No acute \
         hemorrhage. Chronic small vessel ischemic change. Pacemaker generator (SN {dev}) \
         partially imaged. Circle of Willis unremarkable.\nIMPRESSION: No acute intracranial process.\n\n\
         Dictated by Hamish Drummond, MD\n",
        if c.rng.chance(50) {
            format!(
                "{}^{}",
                p(&pt.family.to_uppercase()),
                p(&pt.given.to_uppercase())
            )
        } else {
            format!("{}, {}", p(&pt.family), p(&pt.given))
        },
        m('M', &pt.mrn),
    )
}

fn schoolrn(c: &mut Ctx) -> String {
    let i = c.child();
    let date = c.rng.any_visit();
    let dob = c.rng.date_any(&c.pool[i].dob.clone());
    let ph = c.rng.new_phone();
    let ph2 = c.rng.phone(&c.pool[i].phone.clone());
    let drug = c.rng.pick(&[
        "albuterol HFA 2 puffs",
        "EpiPen 0.3 mg",
        "methylphenidate 10 mg",
    ]);
    let pt = &c.pool[i];
    format!(
        "Lincoln Elementary — Office of the School Nurse\n{date}\n\nDear Dr. Korhonen,\n\n\
         {} {} (DOB {dob}, grade 4, room {}) was seen in my office three times this month for \
         wheezing after recess. {} {} {} ({ph2}) gave consent to contact you. We hold {drug} for \
         {}. Please send an updated asthma action plan.\n\nSincerely,\nNurse Carla\nLincoln Elementary {ph}\n",
        p(&pt.given),
        p(&pt.family),
        m('O', &c.rng.range(10, 30).to_string()),
        pt.her()[..1].to_uppercase() + &pt.her()[1..],
        if pt.kin_role == "wife" || pt.kin_role == "daughter" || pt.kin_role == "niece" {
            "mother"
        } else {
            "father"
        },
        p(&pt.kin_full()),
        p(&pt.given),
    )
}

fn guardian(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let hearing = c.rng.any_visit();
    let filed = c.rng.any_visit();
    let dob = c.rng.date_any(&c.pool[i].dob.clone());
    let addr = c.address(i, true);
    let case = c.rng.digits(6);
    let age = c.age_phrase(i);
    let pt = &c.pool[i];
    format!(
        "CIRCUIT COURT OF THE STATE OF OREGON\nIn the Matter of the Guardianship of\n{}, \
         Respondent.\nCase No. 26PB{case}\n\nNOTICE OF HEARING — filed {filed}\n\n\
         The petitioner, {}, {} of the respondent, seeks appointment as guardian. The respondent, \
         a {age} residing at {addr}, born {dob}, is alleged to be incapacitated due to {}. \
         Hearing: {hearing} at 9:00 am. The Court requests a physician's statement from {PRACTICE}.\n",
        p(&pt.full().to_uppercase()),
        p(&pt.kin_full()),
        pt.kin_role,
        c.rng.cond(),
    )
}

fn workcomp(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let injury = c.rng.any_visit();
    let rtw = c.rng.any_visit();
    let dob = c.rng.date_any(&c.pool[i].dob.clone());
    let claim = m('A', &format!("WC{}", c.rng.digits(9)));
    let ph = c.rng.new_phone();
    let veh = m('X', &vin(&mut c.rng));
    let pt = &c.pool[i];
    format!(
        "SAIF Corporation — Form 827 Worker's and Physician's Report\nClaim {claim}\nWorker: {}   DOB {dob}   \
         SSN {}\nEmployer: Tri-County Gravel LLC, {ph}\nDate of injury: {injury}\n\
         Description: forklift (VIN {veh}) struck left foot. X-ray negative. Plan: {}, PT with Kwame \
         Asante-Boateng.\nModified duty; release to regular work {rtw}.\nDriver's licence {} {}\n",
        p(&pt.full()),
        m('S', &pt.ssn),
        c.rng.code(),
        pt.state,
        m('L', &pt.licence)
    )
}

fn polish(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Polish);
    let dob = c.pool[i].dob;
    let dob_s = d(&dob.eu_dots());
    let visit = c.rng.visit();
    let visit_s = d(&visit.eu_dots());
    let ph = c.rng.phone(&c.pool[i].phone.clone());
    let addr = c.address(i, true);
    let drug = c.rng.drug();
    let pt = &c.pool[i];
    let pesel = m('S', &c.rng.digits(11));
    format!(
        "Szanowni Państwo,\n\nzwracam się w sprawie {} {} {} (ur. {dob_s}, PESEL {pesel}). \
         Wizyta kontrolna była {visit_s}, ale nie dostaliśmy wyników. Proszę o kontakt pod numerem {ph}. \
         Adres: {addr}. {} przyjmuje {drug}.\n\nZ poważaniem,\n{}\n",
        if pt.female {
            "mojej matki"
        } else {
            "mojego ojca"
        },
        p(&pt.given),
        p(&pt.family),
        if pt.female { "Mama" } else { "Tata" },
        p(&pt.kin_full()),
    )
}

fn tagalog(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Filipino);
    let appt = c.rng.visit();
    let appt_s = d(&appt.any(&mut c.rng));
    let ph = c.rng.phone(&c.pool[i].phone.clone());
    let dob = c.rng.date_any(&c.pool[i].dob.clone());
    let pt = &c.pool[i];
    format!(
        "Magandang araw po! Ito po si {} {}, anak ni {} {} (kapanganakan {dob}). \
         Gusto ko po sanang ipa-reschedule ang appointment niya sa {appt_s}. Pwede po ba sa hapon? \
         Tawagan niyo po ako sa {ph}. Salamat po, {}.\nMRN niya po: {}\n",
        p(&pt.kin_given),
        p(&pt.kin_family),
        if pt.female { "Gng." } else { "G." },
        p(&pt.full()),
        p(&pt.kin_given),
        m('M', &pt.mrn)
    )
}

fn hindi(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Indian);
    let appt = c.rng.visit();
    let appt_s = d(&appt.short(&mut c.rng));
    let ph = c.rng.phone(&c.pool[i].phone.clone());
    let em = c.email(i);
    let drug = c.rng.drug();
    let pt = &c.pool[i];
    format!(
        "Namaste doctor sahab,\n\nmain {} {} bol raha hoon, {} {} ji ka {}. Unki tabiyat {appt_s} se \
         theek nahi hai, {drug} lene ke baad chakkar aa rahe hain. Kripya mujhe {ph} par call karein \
         ya {em} par mail karein. Unka health card no. {} hai.\nDhanyavaad\n",
        p(&pt.kin_given),
        p(&pt.kin_family),
        p(&pt.given),
        p(&pt.family),
        if pt.kin_role.starts_with('d') || pt.kin_role.starts_with('s') {
            "beta"
        } else {
            "rishtedaar"
        },
        m('H', &pt.plan),
    )
}

fn arabic(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Arab);
    let appt = c.rng.visit();
    let appt_s = d(&appt.any(&mut c.rng));
    let ph = c.rng.phone(&c.pool[i].phone.clone());
    let dob = c.rng.date_any(&c.pool[i].dob.clone());
    let pt = &c.pool[i];
    format!(
        "As-salamu alaykum,\n\nana {} {}, {} {} {}. 3andna maw3ed yom {appt_s} bas {} ta3ban ktir. \
         momken t7awlo el maw3ed? tarikh el milad {dob}. raqmi {ph}.\nShukran jazeelan\n",
        p(&pt.kin_given),
        p(&pt.kin_family),
        match pt.kin_role {
            "daughter" => "bint",
            "son" => "ibn",
            "wife" => "zawjat",
            "husband" => "zawj",
            "niece" => "bint okht",
            _ => "ibn okht",
        },
        p(&pt.given),
        p(&pt.family),
        if pt.female { "hiya" } else { "huwa" },
    )
}

fn telehealth(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let day = c.rng.visit();
    let day_s = d(&day.iso());
    let ipa = m('I', &ip(&mut c.rng));
    let dob = c.rng.date_any(&c.pool[i].dob.clone());
    let addr = c.address(i, true);
    let pt = &c.pool[i];
    let given = pt.given.clone();
    format!(
        "Telehealth session log  {day_s}  client IP {ipa}\n[{}] System: {} joined the waiting room\n\
         [{}] Priya Raghunathan NP: Hi {}, can you confirm your date of birth?\n[{}] {}: {dob}\n\
         [{}] Priya Raghunathan NP: and where are you located right now?\n[{}] {}: home, {addr}\n\
         [{}] Priya Raghunathan NP: thanks. how's the rash since starting the cream?\n\
         [{}] {}: better. my {} {} is here too\n",
        c.rng.time(),
        p(&pt.full()),
        c.rng.time(),
        p(&given),
        c.rng.time(),
        p(&given),
        c.rng.time(),
        c.rng.time(),
        p(&given),
        c.rng.time(),
        c.rng.time(),
        p(&given),
        pt.kin_role,
        p(&pt.kin_given),
    )
}

fn wearable(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let dev = device_serial(&mut c.rng);
    let days: Vec<Ymd> = (0..c.rng.range(3, 5)).map(|_| c.rng.visit()).collect();
    let pt = &c.pool[i];
    if c.rng.chance(50) {
        let rows: Vec<String> = days
            .iter()
            .map(|y| {
                format!(
                    "{},{},{},{}",
                    d(&y.iso()),
                    c.rng.range(2000, 14000),
                    c.rng.range(52, 96),
                    c.rng.range(88, 99)
                )
            })
            .collect();
        format!(
            "# export for {} <{}>\n# device serial {}\ndate,steps,resting_hr,spo2\n{}\n",
            p(&pt.full()),
            m('E', &pt.email),
            m('V', &dev),
            rows.join("\n")
        )
    } else {
        let rows: Vec<String> = days
            .iter()
            .map(|y| {
                format!(
                    "    {{\"ts\": \"{}T0{}:15:00Z\", \"glucose_mg_dl\": {}}}",
                    d(&y.iso()),
                    c.rng.range(1, 9),
                    c.rng.range(70, 260)
                )
            })
            .collect();
        format!(
            "{{\n  \"patient\": {{\"name\": \"{}\", \"dob\": \"{}\", \"mrn\": \"{}\"}},\n  \
             \"device\": {{\"model\": \"CGM G7\", \"serial\": \"{}\"}},\n  \"readings\": [\n{}\n  ]\n}}\n",
            p(&pt.full()),
            d(&pt.dob.iso()),
            m('M', &pt.mrn),
            m('V', &dev),
            rows.join(",\n")
        )
    }
}

fn ocrnote(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let date = c.rng.visit();
    let date_s = d(&format!("{}/{}/{:02}", date.m, date.d, date.y % 100));
    let ph = c.rng.phone(&c.pool[i].phone.clone());
    let drug = c.rng.drug();
    let room = c.rng.room();
    let pt = &c.pool[i];
    let marked = format!(
        "[scanned handwritten note, OCR]\n{date_s}\nPt: {} {}  Rm {room}\nCalled {} {} re {drug} - \
         no answer, left msg {ph}\nDOB {}\nsee Dr Korhonen tmrw\n",
        p(&pt.given),
        p(&pt.family),
        pt.kin_role,
        p(&pt.kin_given),
        d(&format!("{}-{}-{}", pt.dob.m, pt.dob.d, pt.dob.y)),
    );
    ocr_noise(&mut c.rng, &marked)
}

// ---------------------------------------------------------------- second shapes of some families

/// A night-shift group chat whose messages carry their dates.
fn rotachat2(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let (a, b) = (c.rng.staff_first(), c.rng.staff_first());
    let day = c.rng.visit();
    let hour = c.rng.range(18, 21);
    let stamp = |c: &mut Ctx, h: u32| {
        let t = format!("{h:02}:{:02}", c.rng.below(60));
        format!(
            "[{}, {t}]",
            d(&format!("{}/{}/{:02}", day.m, day.d, day.y % 100))
        )
    };
    let (s1, s2, s3) = (stamp(c, hour), stamp(c, hour + 1), stamp(c, hour + 2));
    let later = c.rng.visit();
    let later_s = d(&later.short(&mut c.rng));
    let room = c.rng.room();
    let ph = c.rng.phone(&c.pool[i].phone.clone());
    let pt = &c.pool[i];
    format!(
        "WhatsApp · CRFH nights\n{s1} {a}: anyone free {later_s}? {} in {room} needs a 1:1 sitter, {} {} can't come till the weekend\n\
         {s2} {b}: I can. is that the {} with the Foley?\n\
         {s3} {a}: yes. {} home number is {ph} if {} gets agitated 🙏\n",
        p(&pt.full()),
        pt.kin_role,
        p(&pt.kin_given),
        p(&pt.given),
        pt.her(),
        if pt.female { "she" } else { "he" },
    )
}

fn faxcover2(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let date = c.rng.any_visit();
    let (fax1, fax2) = (c.rng.fax(), c.rng.fax());
    let (ph, ph2) = (c.rng.new_phone(), c.rng.new_phone());
    let dob = c.rng.date_any(&c.pool[i].dob.clone());
    let doc = c.rng.doctor();
    let pt = &c.pool[i];
    format!(
        "FACSIMILE TRANSMITTAL\nDate: {date} | Pages: 4\nTo: Riverside Heart Associates, intake — Fax {fax1}\n\
         From: {PRACTICE} ({doc}) — Fax {fax2} / Tel {ph}\n\
         Patient: {}    D.O.B.: {dob}    Chart {}\nEnclosed: referral, last three notes, medication list\n\
         Please confirm receipt by calling {ph2}. If received in error, notify us and destroy.\n",
        p(&format!("{} {}. {}", pt.given, pt.mi, pt.family)),
        m('M', &pt.mrn),
    )
}

/// A payer portal's claim detail, pasted into mail.
fn eob2(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let (recv, done) = (c.rng.any_visit(), c.rng.any_visit());
    let svc = c.rng.visit();
    let svc_s = d(&svc.us());
    let payer = c.rng.payer();
    let claim = m('A', &format!("{}{}", c.rng.upper(2), c.rng.digits(10)));
    let npi = c.rng.digits(10);
    let pt = &c.pool[i];
    let (patient, rel) = if c.rng.chance(50) {
        (p(&pt.full()), "Self")
    } else {
        (p(&pt.kin_full()), "Dependent")
    };
    format!(
        "Fwd: claim detail from {payer}\n\nSubscriber ........ {}, {}\nMember ID ......... {}\n\
         Patient ........... {patient} ({rel})\nClaim # ........... {claim}\nReceived {recv} · Processed {done}\n\
         Provider .......... {PRACTICE}, NPI {npi}\n\
         Line 1  {svc_s}  99213  billed $160.00  allowed $104.12  deductible $104.12\n\
         Remark N130: consult plan benefit documents.\n",
        p(&pt.family.to_uppercase()),
        p(&pt.given.to_uppercase()),
        m('H', &pt.plan),
    )
}

fn polish2(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Polish);
    let (a, b) = (c.rng.visit(), c.rng.visit());
    let (a_s, b_s) = (d(&a.eu_dots()), d(&format!("{}.{:02}", b.d, b.m)));
    let ph = c.rng.new_phone();
    let pt = &c.pool[i];
    format!(
        "SMS od {ph}:\nDzień dobry, tu {} {}. Czy mogę przełożyć wizytę {} ({} {}) z {a_s} na {b_s}? \
         Numer karty {}. Dziękuję!\n",
        p(&pt.kin_given),
        p(&pt.kin_family),
        if pt.female { "mamy" } else { "taty" },
        p(&pt.given),
        p(&pt.family),
        m('M', &pt.mrn),
    )
}

fn tagalog2(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Filipino);
    let out = c.rng.any_visit();
    let dob = c.pool[i].dob;
    let dob_s = d(&dob.short(&mut c.rng));
    let ph = c.rng.phone(&c.pool[i].phone.clone());
    let drug = c.rng.drug();
    let pt = &c.pool[i];
    format!(
        "Hello po Doc! Si {} {} po ito, pasyente ninyo. Naubos na po yung {drug} ko noong {out}. \
         Birthday ko po {dob_s} kung kailangan. Pa-refill naman po. Salamat po!\n- {} {ph}\n",
        p(&pt.given),
        p(&pt.family),
        p(&pt.given.to_lowercase()),
    )
}

fn hindi2(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Indian);
    let fall = c.rng.any_visit();
    let addr = c.address(i, true);
    let ph = c.rng.new_phone();
    let pt = &c.pool[i];
    let age = pt.age();
    let age_s = if age > 89 {
        m('G', &age.to_string())
    } else {
        age.to_string()
    };
    format!(
        "Doctor ji, meri {} {} {} (umar {age_s} saal) ko {fall} ko bathroom mein girne se chot lagi. \
         MRN {}. Ghar ka pata: {addr}. Kripya ghar par nurse bhejiye. Phone {ph} — {}\n",
        if pt.female { "maa" } else { "pitaji" },
        p(&pt.given),
        p(&pt.family),
        m('M', &pt.mrn),
        p(&pt.kin_given),
    )
}

fn arabic2(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Arab);
    let test = c.rng.visit();
    let test_s = d(&test.any(&mut c.rng));
    let em = c.email(i);
    let pt = &c.pool[i];
    format!(
        "marhaba, ana {} {}, ra2m el malaf {}. baddi a3ref natijet el fa7s taba3 {test_s}. \
         ib3atuli 3ala {em} law sama7tu. ma3 el shukr\n",
        p(&pt.given),
        p(&pt.family),
        m('M', &pt.mrn),
    )
}

fn telehealth2(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let day = c.rng.visit();
    let day_s = d(&day.any(&mut c.rng));
    let ipa = m('I', &ip(&mut c.rng));
    let url = m('U', &photo_url(&mut c.rng));
    let em = c.email(i);
    let pt = &c.pool[i];
    format!(
        "Video visit — connection report\nScheduled: {day_s} 14:30  Provider: Priya Raghunathan NP\n\
         Participant 1: {} ({em}) from {ipa}, Chrome 131, audio OK\nParticipant 2: {} ({}), joined by phone\n\
         Chat:\n  {}: here's the photo of the rash {url}\n  Priya Raghunathan NP: got it, thanks\n",
        p(&pt.full()),
        p(&pt.kin_full()),
        pt.kin_role,
        p(&pt.given),
    )
}

/// A collections notice, or the text message that comes before one.
fn billing2(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let (sent, svc) = (c.rng.any_visit(), c.rng.any_visit());
    let url = m('U', &pay_url(&mut c.rng));
    let ph = c.rng.new_phone();
    let addr = c.address(i, false);
    let pt = &c.pool[i];
    let amt = c.rng.range(120, 2400);
    if c.rng.chance(50) {
        format!(
            "SMS to {}\nCedar Ridge FH: Hi {}, you have a balance of ${amt}.17 for your visit on {svc}. \
             Pay securely: {url} Reply STOP to opt out. Questions: {ph}\n",
            m('T', &fmt_phone(&mut c.rng, &pt.phone)),
            p(&pt.given),
        )
    } else {
        format!(
            "FINAL NOTICE — {sent}\n\n{}\n{addr}\n\nRe: account {}, date of service {svc}, balance ${amt}.00\n\n\
             Dear {} {},\nyour account is 120 days past due. Unless paid or a payment plan is set up within 30 days, \
             it will be referred to Summit Recovery Services. To arrange a plan call {ph}.\n\n{PRACTICE} billing office\n",
            p(&pt.full().to_uppercase()),
            m('A', &pt.account),
            pt.title(),
            p(&pt.family),
        )
    }
}

fn imaging2(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let exam = c.rng.any_visit();
    let dob = c.rng.date_any(&c.pool[i].dob.clone());
    let room = c.rng.room();
    let age = c.age_phrase(i);
    let pt = &c.pool[i];
    format!(
        "ULTRASOUND — VENOUS DOPPLER, LEFT LOWER EXTREMITY\n{}, {} | DOB {dob} | MRN {} | Inpatient, room {room}\n\
         Date of exam: {exam}\nIndication: {age}, calf pain, positive Homan's sign.\n\
         Findings: compressible common femoral, femoral and popliteal veins. No DVT.\n\
         Reported by Dr. Hamish Drummond, Cedar Ridge Imaging\n",
        p(&pt.family),
        p(&pt.given),
        m('M', &pt.mrn),
    )
}

/// An outside lab's electronic order as printed, label: value in columns.
fn labreq2(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let due = c.rng.visit();
    let due_s = d(&due.us());
    let dob = c.pool[i].dob;
    let dob_s = d(&format!("{:02}{:02}{}", dob.m, dob.d, dob.y));
    let ph = c.rng.phone(&c.pool[i].phone.clone());
    let addr = c.address(i, true);
    let payer = c.rng.payer();
    let pt = &c.pool[i];
    format!(
        "QUEST-STYLE ELECTRONIC ORDER  Control # {}\n\
         PT NAME: {}, {} {}    DOB(MMDDYYYY): {dob_s}    GENDER: {}\n\
         PT ADDR: {addr}\nPT PHONE: {ph}\nPT ID: {}\n\
         INS: {payer}  SUBSCRIBER ID: {}  REL: SELF\n\
         TEST: 85025 CBC W/DIFF; 80061 LIPID PANEL   ICD: Z00.00\nDRAW BY: {due_s}   STANDING ORDER: N\n",
        c.rng.digits(9),
        p(&pt.family.to_uppercase()),
        p(&pt.given.to_uppercase()),
        p(&pt.mi.to_string()),
        if pt.female { "F" } else { "M" },
        m('M', &pt.mrn),
        m('H', &pt.plan),
    )
}

/// A guardian's lawyer writes for the records.
fn guardian2(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let date = c.rng.any_visit();
    let order = c.rng.any_visit();
    let dob = c.rng.date_any(&c.pool[i].dob.clone());
    let fax = c.rng.fax();
    let ph = c.rng.new_phone();
    let pt = &c.pool[i];
    format!(
        "HOLLOWAY & BRANDT, LLP\n{date}\n\nVia fax {fax}\nRecords Custodian, {PRACTICE}\n\n\
         Re: {} {} (DOB {dob}); Letters of Guardianship issued {order}\n\n\
         We represent {}, appointed guardian of the person of {} {}. Enclosed are the Letters. \
         Please release all records since {order} to our office and direct questions to {ph}.\n\n\
         Very truly yours,\nHolloway & Brandt, LLP\n",
        p(&pt.given),
        p(&pt.family),
        p(&pt.kin_full()),
        pt.title(),
        p(&pt.family),
    )
}

/// An employer's first report of injury.
fn workcomp2(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let (inj, hired) = (c.rng.visit(), c.rng.any_visit());
    let inj_s = d(&inj.us());
    let addr = c.address(i, true);
    let ph = c.rng.phone(&c.pool[i].phone.clone());
    let plate_s = m('X', &plate(&mut c.rng));
    let pt = &c.pool[i];
    format!(
        "EMPLOYER'S FIRST REPORT OF OCCUPATIONAL INJURY\nEmployee: {} {} {}\nHome address: {addr}\n\
         Phone: {ph}   SSN: {}   Date of hire: {hired}\nDate of injury: {inj_s} at 14:20\n\
         What happened: employee backed company truck (plate {plate_s}) into loading dock, struck head.\n\
         Treating clinic: {PRACTICE}\n",
        p(&pt.given),
        p(&pt.mi.to_string()),
        p(&pt.family),
        m('S', &pt.ssn),
    )
}

/// The visiting nurse texts the office from the car.
fn homehealth2(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let t = c.rng.time();
    let next = c.rng.visit();
    let next_s = d(&next.short(&mut c.rng));
    let kin_ph = c.rng.new_phone();
    let dev = m('V', &device_serial(&mut c.rng));
    let pt = &c.pool[i];
    format!(
        "Text from Lourdes Pangilinan RN, {t}:\nat {} {} now. pump alarming, serial {dev}, called the vendor. \
         {} {} says next visit {next_s} is fine. {} cell {kin_ph}. will chart tonight\n",
        p(&pt.given),
        p(&pt.family),
        pt.kin_role,
        p(&pt.kin_given),
        p(&pt.kin_given),
    )
}

/// A parent's authorisation for medication at school.
fn schoolrn2(c: &mut Ctx) -> String {
    let i = c.child();
    let (from, to) = (c.rng.visit(), c.rng.visit());
    let (from_s, to_s) = (d(&from.us()), d(&to.us()));
    let dob = c.rng.date_any(&c.pool[i].dob.clone());
    let ph = c.rng.new_phone();
    let pt = &c.pool[i];
    format!(
        "AUTHORIZATION FOR MEDICATION AT SCHOOL — Lincoln Elementary\nStudent: {}, {}   Birthdate: {dob}   Teacher/Room: Mr. Olsen / {}\n\
         Medication: albuterol HFA 90 mcg, 2 puffs before PE\nFrom {from_s} to {to_s}\n\
         Parent/guardian: {}   Phone: {ph}\nPrescriber: Dr. Anneliese Korhonen, {PRACTICE}\n",
        p(&pt.family),
        p(&pt.given),
        m('O', &c.rng.range(100, 240).to_string()),
        p(&pt.kin_full()),
    )
}

/// A clinic intake card, handwritten and read back by OCR.
fn ocrnote2(c: &mut Ctx) -> String {
    let i = c.patient(Culture::Any);
    let dob = c.pool[i].dob;
    let dob_s = d(&format!("{}/{}/{}", dob.m, dob.d, dob.y));
    let addr = c.address(i, false);
    let ph = c.rng.phone(&c.pool[i].phone.clone());
    let kin_ph = c.rng.new_phone();
    let pt = &c.pool[i];
    let marked = format!(
        "[OCR — patient intake card, handwritten]\nNAME {} {}\nD0B {dob_s}\nADDRESS {addr}\nPH0NE {ph}\n\
         EMERG. CONTACT {} ({}) {kin_ph}\nALLERGIES: penicillin\n",
        p(&pt.given.to_uppercase()),
        p(&pt.family.to_uppercase()),
        p(&pt.kin_full()),
        pt.kin_role,
    );
    ocr_noise(&mut c.rng, &marked)
}

// ---------------------------------------------------------------- the set

/// `docs` documents, the families in turn, from a pool of 96 patients.
pub fn generate(seed: u64, docs: usize) -> Set {
    let mut rng = Rng(seed);
    let mut pool = Vec::new();
    for k in 0..96 {
        let culture = match k % 12 {
            1 => Culture::Polish,
            4 => Culture::Filipino,
            7 => Culture::Indian,
            10 => Culture::Arab,
            _ => Culture::Any,
        };
        pool.push(make_patient(&mut rng, culture));
    }
    let roster = pool.iter().step_by(3).map(Patient::full).collect();
    let mut keep: Vec<String> = vec![PRACTICE.to_string()];
    keep.extend(SITES.iter().map(|s| s.to_string()));
    keep.extend(PAYERS.iter().map(|s| s.to_string()));
    for (full, first, last, _) in STAFF {
        keep.extend([full.to_string(), first.to_string(), last.to_string()]);
    }
    // The other offices that write about patients, and their people: none of them PHI.
    keep.extend(
        [
            "Riverside Heart Associates",
            "Lincoln Elementary",
            "Carla",
            "Olsen",
            "Holloway & Brandt, LLP",
            "Holloway",
            "Brandt",
        ]
        .map(String::from),
    );
    let mut c = Ctx { rng, pool };
    let out = (0..docs)
        .map(|n| {
            let family = FAMILIES[n % FAMILIES.len()];
            let marked = match family {
                "referral" => referral(&mut c),
                "consult" => consult(&mut c),
                "refintake" => refintake(&mut c),
                "faxcover" if c.rng.chance(50) => faxcover2(&mut c),
                "faxcover" => faxcover(&mut c),
                "hl7adt" => hl7adt(&mut c),
                "hl7oru" => hl7oru(&mut c),
                "hl7siu" => hl7siu(&mut c),
                "voicemail" => voicemail(&mut c),
                "vmpatient" => vmpatient(&mut c),
                "schedchat" => schedchat(&mut c),
                "rotachat" if c.rng.chance(50) => rotachat2(&mut c),
                "rotachat" => rotachat(&mut c),
                "billing" if c.rng.chance(50) => billing2(&mut c),
                "billing" => billing(&mut c),
                "billreply" => billreply(&mut c),
                "eob" if c.rng.chance(50) => eob2(&mut c),
                "eob" => eob(&mut c),
                "homehealth" if c.rng.chance(50) => homehealth2(&mut c),
                "homehealth" => homehealth(&mut c),
                "hospice" => hospice(&mut c),
                "labreq" if c.rng.chance(50) => labreq2(&mut c),
                "labreq" => labreq(&mut c),
                "imaging" if c.rng.chance(50) => imaging2(&mut c),
                "imaging" => imaging(&mut c),
                "schoolrn" if c.rng.chance(50) => schoolrn2(&mut c),
                "schoolrn" => schoolrn(&mut c),
                "guardian" if c.rng.chance(50) => guardian2(&mut c),
                "guardian" => guardian(&mut c),
                "workcomp" if c.rng.chance(50) => workcomp2(&mut c),
                "workcomp" => workcomp(&mut c),
                "polish" if c.rng.chance(50) => polish2(&mut c),
                "polish" => polish(&mut c),
                "tagalog" if c.rng.chance(50) => tagalog2(&mut c),
                "tagalog" => tagalog(&mut c),
                "hindi" if c.rng.chance(50) => hindi2(&mut c),
                "hindi" => hindi(&mut c),
                "arabic" if c.rng.chance(50) => arabic2(&mut c),
                "arabic" => arabic(&mut c),
                "telehealth" if c.rng.chance(50) => telehealth2(&mut c),
                "telehealth" => telehealth(&mut c),
                "wearable" => wearable(&mut c),
                "ocrnote" if c.rng.chance(50) => ocrnote2(&mut c),
                _ => ocrnote(&mut c),
            };
            build(family, &marked)
        })
        .collect();
    Set {
        docs: out,
        roster,
        keep,
    }
}
