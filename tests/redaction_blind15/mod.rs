//! Generator of the fifteenth blind PHI set: 28 families of clinic mail, each written from a
//! few templates with fields, layouts and cases drawn from a seeded generator. Templates mark
//! identifiers inline as `«K:text»` (K a one-letter kind code, see [`kind_of`]); the builder
//! strips the marks and records the labels, so a label's span is the text it was written
//! with and cannot drift from it.

use opsdesk::governance::redact::Kind;

use crate::redaction_harness::{Doc, Label, Set};

pub const FAMILIES: [&str; 28] = [
    // referral letters
    "dialref",
    "dentref",
    "ptreply",
    "ucxfer", // HL7 v2 feeds
    "hl7mdm",
    "hl7orm",
    "hl7dft",
    "hl7rep", // voicemail and call transcripts
    "answsvc",
    "triage",
    "pharmcb",
    "vmkin", // scheduling chats
    "dialchat",
    "ptchat",
    "teamsexp", // billing mail
    "denial",
    "collect",
    "portalbill",
    "dentbill", // the rest
    "hospice",
    "labreq",
    "imaging",
    "guardian",
    "polish",
    "tagalog",
    "hinglish",
    "arabic",
    "devexport",
];

// ---------------------------------------------------------------------------------------
// Seeded generator (splitmix64): the set must be the same for the same seed on any machine.

pub struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number in `lo..=hi`.
    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next() % u64::from(hi - lo + 1)) as u32
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next() % items.len() as u64) as usize]
    }
    fn chance(&mut self, percent: u32) -> bool {
        self.range(1, 100) <= percent
    }
    fn digits(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from(b'0' + self.range(0, 9) as u8))
            .collect()
    }
    fn letters(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from(b'A' + self.range(0, 25) as u8))
            .collect()
    }
}

// ---------------------------------------------------------------------------------------
// Builder: `«K:text»` marks a labelled span.

fn kind_of(code: char) -> Kind {
    match code {
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
        'C' => Kind::Card,
        'V' => Kind::Device,
        'W' => Kind::Vehicle,
        'O' => Kind::Room,
        other => panic!("no kind code {other:?}"),
    }
}

/// Marks `s` as an identifier of kind `code`.
fn m(code: char, s: &str) -> String {
    format!("«{code}:{s}»")
}

fn build(family: &'static str, marked: &str) -> Doc {
    let mut text = String::with_capacity(marked.len());
    let mut labels = Vec::new();
    let mut rest = marked;
    while let Some(open) = rest.find('«') {
        text.push_str(&rest[..open]);
        let after = &rest[open + '«'.len_utf8()..];
        let close = after.find('»').expect("a closed mark");
        let inner = &after[..close];
        let mut chars = inner.chars();
        let code = chars.next().expect("a kind code");
        assert_eq!(chars.next(), Some(':'), "mark {inner:?}");
        let value = &inner[2..];
        let start = text.len();
        text.push_str(value);
        labels.push(Label {
            start,
            end: text.len(),
            kind: kind_of(code),
        });
        rest = &after[close + '»'.len_utf8()..];
    }
    text.push_str(rest);
    Doc {
        family,
        text,
        labels,
    }
}

// ---------------------------------------------------------------------------------------
// The people, the practice and the values.

#[derive(Clone, Copy, PartialEq, Eq)]
enum Origin {
    General,
    Polish,
    Filipino,
    Indian,
    Arab,
}

#[derive(Clone, Copy)]
struct Day {
    y: u32,
    m: u32,
    d: u32,
}

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

impl Day {
    fn month(&self) -> &'static str {
        MONTHS[self.m as usize - 1]
    }
    fn mon(&self) -> &'static str {
        &MONTHS[self.m as usize - 1][..3]
    }
    fn us(&self) -> String {
        format!("{:02}/{:02}/{}", self.m, self.d, self.y)
    }
    fn short(&self) -> String {
        format!("{}/{}/{:02}", self.m, self.d, self.y % 100)
    }
    fn long(&self) -> String {
        format!("{} {}, {}", self.month(), self.d, self.y)
    }
    fn dmy(&self) -> String {
        format!("{} {} {}", self.d, self.mon(), self.y)
    }
    fn iso(&self) -> String {
        format!("{}-{:02}-{:02}", self.y, self.m, self.d)
    }
    fn dotted(&self) -> String {
        format!("{:02}.{:02}.{}", self.d, self.m, self.y)
    }
    fn hl7(&self) -> String {
        format!("{}{:02}{:02}", self.y, self.m, self.d)
    }
    fn md(&self) -> String {
        format!("{} {}", self.mon(), self.d)
    }
    /// Any written form.
    fn any(&self, r: &mut Rng) -> String {
        match r.range(0, 5) {
            0 => self.us(),
            1 => self.short(),
            2 => self.long(),
            3 => self.dmy(),
            4 => self.iso(),
            _ => format!("{}-{}-{}", self.m, self.d, self.y),
        }
    }
    /// Read out as digits: "oh three fourteen forty one".
    fn spoken_numeric(&self, r: &mut Rng) -> String {
        let yy = self.y % 100;
        let year = if yy < 10 {
            format!("oh {}", ONES[yy as usize])
        } else {
            number_words(yy)
        };
        format!(
            "{} {} {year}",
            spoken_digits(r, &format!("{:02}", self.m)),
            number_words(self.d)
        )
    }
    /// As said aloud: "march the fourth", "june twenty two".
    fn spoken(&self, r: &mut Rng, with_year: bool) -> String {
        let month = self.month().to_lowercase();
        let day = if r.chance(50) {
            ordinal(self.d)
        } else {
            number_words(self.d)
        };
        let mut s = match r.range(0, 2) {
            0 => format!("{month} {day}"),
            1 => format!("the {} of {month}", ordinal(self.d)),
            _ => format!("{month} the {}", ordinal(self.d)),
        };
        if with_year {
            s.push(' ');
            s.push_str(&year_words(self.y));
        }
        s
    }
}

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

fn number_words(n: u32) -> String {
    if n < 20 {
        ONES[n as usize].to_string()
    } else if n.is_multiple_of(10) {
        TENS[(n / 10) as usize].to_string()
    } else {
        format!("{} {}", TENS[(n / 10) as usize], ONES[(n % 10) as usize])
    }
}

fn ordinal(n: u32) -> String {
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
    if n < 20 {
        ORD[n as usize].to_string()
    } else if n.is_multiple_of(10) {
        format!(
            "{}ieth",
            &TENS[(n / 10) as usize][..TENS[(n / 10) as usize].len() - 1]
        )
    } else {
        format!("{} {}", TENS[(n / 10) as usize], ORD[(n % 10) as usize])
    }
}

fn year_words(y: u32) -> String {
    let (hi, lo) = (y / 100, y % 100);
    if hi == 20 && lo < 10 {
        format!("two thousand {}", number_words(lo))
    } else if lo == 0 {
        format!("{} hundred", number_words(hi))
    } else if lo < 10 {
        format!("{} oh {}", number_words(hi), number_words(lo))
    } else {
        format!("{} {}", number_words(hi), number_words(lo))
    }
}

/// Digits read one by one, zero often as "oh".
fn spoken_digits(r: &mut Rng, digits: &str) -> String {
    digits
        .chars()
        .filter(char::is_ascii_digit)
        .map(|c| {
            let d = c.to_digit(10).unwrap_or(0) as usize;
            if d == 0 && r.chance(60) {
                "oh".to_string()
            } else {
                ONES[d].to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A surname spelled out as a caller does: "m-c-a-l-l-i-s-t-e-r" or "m c a l l ...".
fn spelled(r: &mut Rng, name: &str) -> String {
    let sep = *r.pick(&["-", " ", "-", ", "]);
    name.chars()
        .filter(|c| c.is_alphabetic())
        .map(|c| c.to_lowercase().to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

#[derive(Clone)]
struct Phone {
    area: String,
    exch: String,
    line: String,
}

impl Phone {
    fn new(r: &mut Rng) -> Phone {
        let area = r
            .pick(&[
                "412", "724", "617", "503", "720", "919", "614", "267", "215", "484", "734", "608",
                "952", "816",
            ])
            .to_string();
        Phone {
            area,
            exch: format!("{}{}", r.range(2, 9), r.digits(2)),
            line: r.digits(4),
        }
    }
    fn any(&self, r: &mut Rng) -> String {
        let (a, e, l) = (&self.area, &self.exch, &self.line);
        match r.range(0, 5) {
            0 => format!("({a}) {e}-{l}"),
            1 => format!("{a}-{e}-{l}"),
            2 => format!("{a}.{e}.{l}"),
            3 => format!("+1 {a} {e} {l}"),
            4 => format!("1-{a}-{e}-{l}"),
            _ => format!("({a}){e}-{l}"),
        }
    }
    fn digits(&self) -> String {
        format!("{}{}{}", self.area, self.exch, self.line)
    }
    fn spoken(&self, r: &mut Rng) -> String {
        format!(
            "{}, {}, {}",
            spoken_digits(r, &self.area),
            spoken_digits(r, &self.exch),
            spoken_digits(r, &self.line)
        )
    }
}

#[derive(Clone)]
struct Pat {
    given: String,
    family: String,
    mid: char,
    nick: Option<&'static str>,
    female: bool,
    origin: Origin,
    dob: Day,
    phone: Phone,
    street: String,
    unit: Option<String>,
    town: &'static str,
    state: &'static str,
    zip: String,
    mrn: String,
    member: String,
    acct: String,
    ssn: String,
    email: String,
}

impl Pat {
    fn full(&self) -> String {
        format!("{} {}", self.given, self.family)
    }
    fn street_line(&self) -> String {
        match &self.unit {
            Some(u) => format!("{} {u}", self.street),
            None => self.street.clone(),
        }
    }
    /// The name someone close would use: the nickname if there is one.
    fn called(&self) -> &str {
        self.nick.unwrap_or(&self.given)
    }
    fn age_in_2026(&self) -> u32 {
        2026 - self.dob.y
    }
}

// (given, nickname, female)
const GIVEN_GENERAL: &[(&str, Option<&str>, bool)] = &[
    ("Rose", None, true),
    ("Hope", None, true),
    ("Faith", None, true),
    ("Daisy", None, true),
    ("Summer", None, true),
    ("Grace", Some("Gracie"), true),
    ("Ivy", None, true),
    ("Dawn", None, true),
    ("Joy", None, true),
    ("Margaret", Some("Peggy"), true),
    ("Elizabeth", Some("Liz"), true),
    ("Patricia", Some("Trish"), true),
    ("Dolores", Some("Lola"), true),
    ("Siobhán", None, true),
    ("Zoë", None, true),
    ("Renée", None, true),
    ("Aoife", None, true),
    ("Bernadette", Some("Bernie"), true),
    ("Constance", Some("Connie"), true),
    ("Ngozi", None, true),
    ("Mei-Ling", None, true),
    ("Inés", None, true),
    ("June", None, true),
    ("Pearl", None, true),
    ("Ruby", None, true),
    ("Will", None, false),
    ("Mark", None, false),
    ("Grant", None, false),
    ("Guy", None, false),
    ("Frank", None, false),
    ("William", Some("Billy"), false),
    ("Robert", Some("Bob"), false),
    ("Edward", Some("Ted"), false),
    ("Jerome", Some("Jerry"), false),
    ("Tadhg", None, false),
    ("Séamus", None, false),
    ("José", Some("Pepe"), false),
    ("Kwame", None, false),
    ("Dmitri", Some("Dima"), false),
    ("Brooks", None, false),
    ("Chase", None, false),
    ("Miles", None, false),
    ("Wade", None, false),
    ("Sonny", None, false),
    ("Reginald", Some("Reggie"), false),
];

const FAMILY_GENERAL: &[&str] = &[
    "Young",
    "Bishop",
    "Price",
    "Lane",
    "Page",
    "Grant",
    "Rose",
    "Summers",
    "Hope",
    "Law",
    "Cook",
    "Fox",
    "Marsh",
    "Moody",
    "Little",
    "Strong",
    "McAllister",
    "MacLeod",
    "McNulty",
    "MacKinnon",
    "O'Neil",
    "O'Dowd",
    "O'Shaughnessy",
    "D'Souza",
    "N'Dour",
    "D'Amico",
    "van der Berg",
    "de la Cruz",
    "Van Wyk",
    "De Luca",
    "di Stefano",
    "le Roux",
    "ten Hove",
    "Ruiz-Whitfield",
    "Okafor-Lang",
    "Smythe-Barrow",
    "Abara-Quinn",
    "Núñez",
    "Brontë",
    "Søndergaard",
    "Åkesson",
    "Müller",
    "Kováč",
    "García Márquez",
    "Pérez Villanueva",
    "Da Silva Costa",
    "Ibekwe",
    "Thibodeaux",
    "Wojtowicz",
    "Featherstonehaugh",
];

const POLISH: (&[(&str, bool)], &[&str]) = (
    &[
        ("Zofia", true),
        ("Krzysztof", false),
        ("Małgorzata", true),
        ("Wojciech", false),
        ("Jadwiga", true),
        ("Grzegorz", false),
        ("Bożena", true),
        ("Tadeusz", false),
        ("Agnieszka", true),
    ],
    // Polish surnames of women end -ska/-cka; both forms are listed.
    &[
        "Kowalczyk",
        "Żak",
        "Nowak-Lis",
        "Wróbel",
        "Pietrzak",
        "Dąbrowsk",
        "Wiśniewsk",
        "Szymańsk",
        "Grzybowsk",
    ],
);
const FILIPINO: (&[(&str, bool)], &[&str]) = (
    &[
        ("Maricel", true),
        ("Rodrigo", false),
        ("Ligaya", true),
        ("Bayani", false),
        ("Rosalinda", true),
        ("Ernesto", false),
        ("Jocelyn", true),
        ("Imelda", true),
        ("Dante", false),
    ],
    &[
        "dela Cruz",
        "Macapagal",
        "Santos-Reyes",
        "Bautista",
        "Dimaculangan",
        "Pangilinan",
        "Villanueva",
        "Magsaysay",
        "Tolentino",
    ],
);
const INDIAN: (&[(&str, bool)], &[&str]) = (
    &[
        ("Sunita", true),
        ("Rajesh", false),
        ("Lakshmi", true),
        ("Vikram", false),
        ("Anjali", true),
        ("Harpreet", true),
        ("Deepak", false),
        ("Kavya", true),
        ("Suresh", false),
    ],
    &[
        "Venkataraman",
        "Chaudhary",
        "Iyer",
        "Bhattacharya",
        "Gill",
        "Reddy",
        "Deshpande",
        "Sandhu",
        "Nair",
    ],
);
const ARAB: (&[(&str, bool)], &[&str]) = (
    &[
        ("Fatima", true),
        ("Omar", false),
        ("Layla", true),
        ("Khalid", false),
        ("Noor", true),
        ("Yousef", false),
        ("Huda", true),
        ("Tariq", false),
        ("Amal", true),
    ],
    &[
        "Al-Haddad",
        "El-Masri",
        "Abdel Rahman",
        "Mansour",
        "Al-Farsi",
        "Khoury",
        "Nasrallah",
        "Al Nuaimi",
        "Qasim",
    ],
);

const STREETS: &[&str] = &[
    "Larkspur Ln",
    "Old Mill Road",
    "Ridgeview Dr",
    "Hope Street",
    "Bishop Ave",
    "N. Lane Blvd",
    "Cherrywood Ct",
    "Fairmount Terrace",
    "Rue St-Denis",
    "County Rd 12",
    "Pleasant Hill Rd",
    "W 3rd St",
    "Kessler Way",
    "Young Street",
    "Orchard Crest Ln",
];
const TOWNS: &[(&str, &str)] = &[
    ("Millvale", "PA"),
    ("Canonsburg", "PA"),
    ("Sewickley", "PA"),
    ("Beaver Falls", "PA"),
    ("McKees Rocks", "PA"),
    ("Steubenville", "OH"),
    ("Weirton", "WV"),
    ("New Kensington", "PA"),
    ("Bethel Park", "PA"),
    ("Wheeling", "WV"),
    ("Cranberry Twp", "PA"),
    ("East Liverpool", "OH"),
];

const MAIL_HOSTS: &[&str] = &[
    "gmail.com",
    "yahoo.com",
    "outlook.com",
    "comcast.net",
    "icloud.com",
    "verizon.net",
    "aol.com",
    "proton.me",
];

/// An ASCII, lower-case form of a name for an email local part.
fn ascii_lower(s: &str) -> String {
    s.chars()
        .filter_map(|c| {
            let c = match c {
                'á' | 'à' | 'ä' | 'â' | 'ą' | 'Á' | 'Å' | 'å' => 'a',
                'é' | 'ë' | 'è' | 'ę' | 'É' => 'e',
                'í' | 'ï' => 'i',
                'ó' | 'ö' | 'ø' | 'Ø' | 'Ó' => 'o',
                'ú' | 'ü' => 'u',
                'ñ' | 'ń' => 'n',
                'ł' | 'Ł' => 'l',
                'ś' | 'Ś' => 's',
                'ż' | 'ź' | 'Ż' => 'z',
                'č' => 'c',
                c => c,
            };
            c.is_ascii_alphanumeric().then(|| c.to_ascii_lowercase())
        })
        .collect()
}

fn make_email(r: &mut Rng, given: &str, family: &str) -> String {
    let g = ascii_lower(given);
    let f = ascii_lower(family);
    let host = r.pick(MAIL_HOSTS);
    match r.range(0, 4) {
        0 => format!("{g}.{f}@{host}"),
        1 => format!("{}{f}@{host}", &g[..1]),
        2 => format!("{g}{f}{}@{host}", r.range(41, 99)),
        3 => format!("{g}_{}@{host}", &f[..1]),
        _ => format!("{f}.family@{host}"),
    }
}

fn make_patient(
    r: &mut Rng,
    given: &str,
    nick: Option<&'static str>,
    female: bool,
    family: &str,
    origin: Origin,
) -> Pat {
    let (town, state) = *r.pick(TOWNS);
    let dob = Day {
        y: if r.chance(30) {
            r.range(1928, 1936)
        } else {
            r.range(1940, 2019)
        },
        m: r.range(1, 12),
        d: r.range(1, 28),
    };
    let unit = match r.range(0, 5) {
        0 => Some(format!(
            "Apt {}{}",
            r.range(1, 9),
            r.pick(&["A", "B", "C", ""])
        )),
        1 => Some(format!("Unit {}", r.range(2, 40))),
        2 => Some(format!("#{}", r.range(101, 420))),
        _ => None,
    };
    let street = format!("{} {}", r.range(12, 9870), r.pick(STREETS));
    let mut p = Pat {
        given: given.to_string(),
        family: family.to_string(),
        mid: char::from(b'A' + r.range(0, 25) as u8),
        nick,
        female,
        origin,
        dob,
        phone: Phone::new(r),
        street,
        unit,
        town,
        state,
        zip: if r.chance(25) {
            format!(
                "{}{}-{}",
                r.pick(&["150", "151", "260", "439"]),
                r.digits(2),
                r.digits(4)
            )
        } else {
            format!(
                "{}{}",
                r.pick(&["150", "151", "160", "260", "439"]),
                r.digits(2)
            )
        },
        mrn: String::new(),
        member: String::new(),
        acct: String::new(),
        ssn: format!(
            "{}{}-{}-{}",
            r.range(1, 6),
            r.digits(2),
            r.digits(2),
            r.digits(4)
        ),
        email: String::new(),
    };
    p.mrn = match r.range(0, 2) {
        0 => format!("{}{}", r.range(1, 9), r.digits(7)),
        1 => format!("CH{}", r.digits(6)),
        _ => format!("{}-{}", r.digits(3), r.digits(5)),
    };
    p.member = match r.range(0, 3) {
        0 => format!("{}{}", r.letters(3), r.digits(9)),
        1 => format!("W{}", r.digits(9)),
        2 => format!(
            "{}{}{}-{}",
            r.range(1, 9),
            r.letters(2),
            r.digits(1),
            r.letters(2) + &r.digits(2)
        ),
        _ => format!("ZGP{}{}", r.digits(6), r.letters(2)),
    };
    let acct_len = r.range(6, 9) as usize;
    p.acct = format!("{}{}", r.pick(&["", "A", "G", "88-"]), r.digits(acct_len));
    p.email = make_email(r, &p.given, &p.family);
    p
}

fn polish_family(stem: &str, female: bool) -> String {
    if stem.ends_with("sk") || stem.ends_with("ck") {
        format!("{stem}{}", if female { "a" } else { "i" })
    } else {
        stem.to_string()
    }
}

/// The pool of 96 patients: 60 of any background, nine each of four language families.
fn pool(r: &mut Rng) -> Vec<Pat> {
    let mut out = Vec::new();
    for i in 0..60 {
        let (g, n, f) = GIVEN_GENERAL[(i * 7 + r.range(0, 3) as usize) % GIVEN_GENERAL.len()];
        let fam = FAMILY_GENERAL[(i * 11 + r.range(0, 5) as usize) % FAMILY_GENERAL.len()];
        out.push(make_patient(r, g, n, f, fam, Origin::General));
    }
    for i in 0..9 {
        let (g, f) = POLISH.0[i];
        let fam = polish_family(POLISH.1[(i * 4 + 1) % 9], f);
        out.push(make_patient(r, g, None, f, &fam, Origin::Polish));
    }
    for (origin, (given, fams)) in [
        (Origin::Filipino, FILIPINO),
        (Origin::Indian, INDIAN),
        (Origin::Arab, ARAB),
    ] {
        for i in 0..9 {
            let (g, f) = given[i];
            out.push(make_patient(r, g, None, f, fams[(i * 2 + 3) % 9], origin));
        }
    }
    out
}

/// A relative, neighbour or carer: not on any roster.
fn relative(r: &mut Rng) -> (String, &'static str) {
    let (given, role) = if r.chance(50) {
        (
            *r.pick(&[
                "Hope", "Rose", "Carol", "Dana", "Faith", "Imani", "Colleen", "Bridget", "Ana",
                "Daisy",
            ]),
            *r.pick(&[
                "daughter",
                "wife",
                "sister",
                "niece",
                "neighbor",
                "granddaughter",
            ]),
        )
    } else {
        (
            *r.pick(&[
                "Grant", "Mark", "Will", "Dale", "Terrence", "Luis", "Declan", "Obi", "Hunter",
                "Wes",
            ]),
            *r.pick(&[
                "son",
                "husband",
                "brother",
                "nephew",
                "grandson",
                "son-in-law",
            ]),
        )
    };
    (given.to_string(), role)
}

struct Staff {
    title: &'static str,
    given: &'static str,
    family: &'static str,
}

const STAFF: &[Staff] = &[
    Staff {
        title: "Dr.",
        given: "Helena",
        family: "Voss",
    },
    Staff {
        title: "Dr.",
        given: "Marcus",
        family: "Oyelaran",
    },
    Staff {
        title: "Dr.",
        given: "Ilse",
        family: "Sørensen",
    },
    Staff {
        title: "Dr.",
        given: "Wendell",
        family: "Prakash",
    },
    Staff {
        title: "Dr.",
        given: "Chioma",
        family: "Ilori",
    },
    Staff {
        title: "RN",
        given: "Tamsin",
        family: "Leclair",
    },
    Staff {
        title: "RN",
        given: "Jorge",
        family: "Albuquerque",
    },
    Staff {
        title: "PT",
        given: "Brendan",
        family: "Hollis",
    },
    Staff {
        title: "DPT",
        given: "Nkechi",
        family: "Adeyemi",
    },
    Staff {
        title: "DDS",
        given: "Roland",
        family: "Fairweather",
    },
    Staff {
        title: "PharmD",
        given: "Yuki",
        family: "Tanabe",
    },
    Staff {
        title: "LPN",
        given: "Corinne",
        family: "Blakely",
    },
];

const PRACTICE: &str = "Cedar Hollow Health Partners";
const SITES: &[&str] = &[
    "Cedar Hollow Family Medicine",
    "Millrace Dialysis Center",
    "Cedar Hollow Urgent Care",
    "Cedar Hollow Physical Therapy",
    "Cedar Hollow Dental",
    "Ridgeline Oral Surgery",
    "Lakemont Nephrology",
    "Three Rivers Hospice",
    "Allegheny Valley Imaging",
];
const PAYERS: &[&str] = &[
    "Aetna",
    "Cigna",
    "Humana",
    "UnitedHealthcare",
    "Highmark Blue Cross Blue Shield",
    "Medicare",
    "UPMC Health Plan",
    "Delta Dental",
    "Keystone First",
];
const PHARMACIES: &[&str] = &[
    "Giant Eagle Pharmacy",
    "Rite Aid",
    "CVS Pharmacy",
    "Walgreens",
];

const DRUGS: &[&str] = &[
    "metoprolol succinate 25 mg",
    "epoetin alfa 4,000 units",
    "sevelamer 800 mg TID",
    "apixaban 5 mg BID",
    "amoxicillin 500 mg",
    "hydrocodone/APAP 5/325",
    "ibuprofen 600 mg",
    "furosemide 40 mg",
    "insulin glargine 18 units",
    "morphine sulfate 5 mg/0.25 mL",
    "lorazepam 0.5 mg",
    "cinacalcet 30 mg",
    "chlorhexidine 0.12% rinse",
    "atorvastatin 40 mg",
];
const EPONYMS: &[&str] = &[
    "Parkinson's disease",
    "Bell's palsy",
    "Crohn's disease",
    "Graves' disease",
    "a positive Tinel's sign",
    "Hodgkin lymphoma",
    "Alzheimer's dementia",
    "a Baker's cyst",
    "Raynaud's",
    "a Colles fracture",
    "Sjögren's",
    "Cushing's",
];

fn staff(r: &mut Rng) -> &'static Staff {
    r.pick(STAFF)
}

fn dr(s: &Staff) -> String {
    if s.title == "Dr." {
        format!("Dr. {}", s.family)
    } else {
        format!("{} {}, {}", s.given, s.family, s.title)
    }
}

/// A signature line: "Dr. Helena Voss", "Tamsin Leclair, RN".
fn signed(s: &Staff) -> String {
    if s.title == "Dr." {
        format!("Dr. {} {}", s.given, s.family)
    } else {
        format!("{} {}, {}", s.given, s.family, s.title)
    }
}

/// One of the physicians.
fn doctor(r: &mut Rng) -> &'static Staff {
    &STAFF[r.range(0, 4) as usize]
}

fn visit(r: &mut Rng) -> Day {
    Day {
        y: 2026,
        m: r.range(1, 12),
        d: r.range(1, 28),
    }
}

fn luhn_card(r: &mut Rng) -> String {
    let mut d: Vec<u32> = vec![*r.pick(&[4, 5, 6])];
    for _ in 0..14 {
        d.push(r.range(0, 9));
    }
    // The check digit makes the weighted sum a multiple of ten.
    let sum: u32 = d
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
    d.push((10 - sum % 10) % 10);
    let s: String = d.iter().map(|x| char::from(b'0' + *x as u8)).collect();
    match r.range(0, 2) {
        0 => format!("{} {} {} {}", &s[..4], &s[4..8], &s[8..12], &s[12..]),
        1 => format!("{}-{}-{}-{}", &s[..4], &s[4..8], &s[8..12], &s[12..]),
        _ => s,
    }
}

fn ip(r: &mut Rng) -> String {
    if r.chance(15) {
        format!(
            "2601:{:x}:{:x}:{:x}::{:x}",
            r.range(0x100, 0xfff),
            r.range(0x1000, 0xffff),
            r.range(0x10, 0xfff),
            r.range(1, 0xff)
        )
    } else {
        format!(
            "{}.{}.{}.{}",
            r.pick(&[71, 73, 98, 108, 174, 24, 68]),
            r.range(1, 254),
            r.range(1, 254),
            r.range(1, 254)
        )
    }
}

fn plate(r: &mut Rng) -> String {
    match r.range(0, 2) {
        0 => format!("{}-{}", r.letters(3), r.digits(4)),
        1 => format!("{}{} {}", r.range(1, 9), r.letters(3), r.digits(3)),
        _ => format!("{}-{}{}", r.letters(2), r.digits(3), r.letters(1)),
    }
}

/// A vehicle identification number: 17 characters without I, O, Q.
fn vin(r: &mut Rng) -> String {
    const VIN: &[u8] = b"ABCDEFGHJKLMNPRSTUVWXYZ0123456789";
    (0..17)
        .map(|_| char::from(VIN[r.range(0, VIN.len() as u32 - 1) as usize]))
        .collect()
}

fn licence(r: &mut Rng) -> String {
    match r.range(0, 2) {
        0 => r.digits(8),
        1 => format!("{} {} {}", r.digits(3), r.digits(3), r.digits(3)),
        _ => format!(
            "{}{}-{}-{}",
            r.letters(1),
            r.digits(4),
            r.digits(5),
            r.digits(5)
        ),
    }
}

fn serial(r: &mut Rng, prefix: &str) -> String {
    format!("{prefix}{}{}", r.digits(6), r.letters(1))
}

fn age_phrase(r: &mut Rng, age: u32) -> String {
    match r.range(0, 3) {
        0 => format!("{}-year-old", m('G', &age.to_string())),
        1 => format!("aged {}", m('G', &age.to_string())),
        2 => format!("{} y/o", m('G', &age.to_string())),
        _ => format!("age {}", m('G', &age.to_string())),
    }
}

// ---------------------------------------------------------------------------------------
// Shared pieces of templates.

struct Ctx {
    pool: Vec<Pat>,
}

impl Ctx {
    fn any(&self, r: &mut Rng) -> Pat {
        r.pick(&self.pool).clone()
    }
    /// A patient born before 1960 (hospice, guardianship).
    fn older(&self, r: &mut Rng) -> Pat {
        let some: Vec<&Pat> = self.pool.iter().filter(|p| p.dob.y < 1960).collect();
        (*r.pick(&some)).clone()
    }
    fn of(&self, r: &mut Rng, origin: Origin) -> Pat {
        let some: Vec<&Pat> = self.pool.iter().filter(|p| p.origin == origin).collect();
        (*r.pick(&some)).clone()
    }
}

fn title(p: &Pat) -> &'static str {
    if p.female { "Mrs." } else { "Mr." }
}

/// "Rose E. McAllister" as one label.
fn name_mi(p: &Pat) -> String {
    m('P', &format!("{} {}. {}", p.given, p.mid, p.family))
}

/// "McAllister, Rose E." as two labels, the initial's period outside.
fn last_first(p: &Pat, upper: bool, mi: bool) -> String {
    let (f, g) = if upper {
        (p.family.to_uppercase(), p.given.to_uppercase())
    } else {
        (p.family.clone(), p.given.clone())
    };
    if mi {
        format!("{}, {}.", m('P', &f), m('P', &format!("{g} {}", p.mid)))
    } else {
        format!("{}, {}", m('P', &f), m('P', &g))
    }
}

/// HL7 XPN: FAMILY^GIVEN^M, three labels.
fn hl7_name(p: &Pat) -> String {
    format!(
        "{}^{}^{}",
        m('P', &p.family.to_uppercase()),
        m('P', &p.given.to_uppercase()),
        m('P', &p.mid.to_string())
    )
}

fn lower_name(p: &Pat) -> String {
    m('P', &p.full().to_lowercase())
}

/// The age as written in a note, labelled only over 89.
fn age_text(r: &mut Rng, p: &Pat) -> String {
    let age = p.age_in_2026();
    if age > 89 {
        age_phrase(r, age)
    } else {
        format!("{age}-year-old")
    }
}

fn spoken_age(p: &Pat) -> String {
    let age = p.age_in_2026();
    let words = if age >= 100 {
        format!("a hundred and {}", number_words(age - 100))
    } else {
        number_words(age)
    };
    if age > 89 { m('G', &words) } else { words }
}

fn address_block(p: &Pat) -> String {
    format!(
        "{}\n{}, {} {}",
        m('R', &p.street_line()),
        m('R', p.town),
        p.state,
        m('Z', &p.zip)
    )
}

fn address_line(p: &Pat) -> String {
    format!(
        "{}, {}, {} {}",
        m('R', &p.street_line()),
        m('R', p.town),
        p.state,
        m('Z', &p.zip)
    )
}

fn spoken_email(p: &Pat) -> String {
    let e = p
        .email
        .replace('.', " dot ")
        .replace('@', " at ")
        .replace('_', " underscore ");
    m('E', &e)
}

fn mail_date(r: &mut Rng, d: &Day) -> String {
    let wd = r.pick(&["Mon", "Tue", "Wed", "Thu", "Fri"]);
    format!(
        "{wd}, {} {:02}:{:02}",
        m('D', &d.dmy()),
        r.range(7, 18),
        r.range(0, 59)
    )
}

// ---------------------------------------------------------------------------------------
// Referral letters.

/// A dialysis unit asks a transient unit to take a travelling patient; the name is wrapped
/// across a line break, the station number is a Room.
fn dialref(r: &mut Rng, c: &Ctx) -> String {
    if r.chance(40) {
        return dialref_mail(r, c);
    }
    let p = c.any(r);
    let s = doctor(r);
    let (rel, role) = relative(r);
    let from = visit(r);
    let to = Day {
        d: (from.d + r.range(3, 12)).min(28),
        ..from
    };
    let lab = visit(r);
    let letter = visit(r);
    let station = r.range(1, 24);
    let fax = Phone::new(r);
    let mut t = format!(
        "MILLRACE DIALYSIS CENTER\nA service of Cedar Hollow Health Partners\nFax {}\n\n{}\n\nTransient Treatment Coordinator\nLakemont Nephrology\n\nRe: transient hemodialysis request\n\n",
        m('F', &fax.any(r)),
        m('D', &letter.long())
    );
    t += &format!(
        "We would be grateful if you could accept our patient {} {}\n{} (DOB {}) for treatment from {} through {}.\n",
        title(&p),
        m('P', &p.given),
        m('P', &p.family),
        m('D', &p.dob.us()),
        m('D', &from.md()),
        m('D', &to.long())
    );
    t += &format!(
        "{} currently dialyzes here MWF first shift at station {}; EDW 71.5 kg, 3h45m, 2K/2.5Ca bath, {}.\n",
        if p.female { "She" } else { "He" },
        m('O', &station.to_string()),
        r.pick(DRUGS)
    );
    t += &format!(
        "HBsAg negative and HBsAb 48 on {}. Comorbid {}.\n",
        m('D', &lab.short()),
        r.pick(EPONYMS)
    );
    t += &format!(
        "While away {} will stay with {} {} {} at {}; best number {}.\n",
        if p.female { "she" } else { "he" },
        if p.female { "her" } else { "his" },
        role,
        m('P', &rel),
        address_line(&p),
        m('T', &p.phone.any(r))
    );
    t += &format!(
        "Medicare MBI {} (secondary {}). Chart {}.\n\nKind regards,\n\n{}\nMillrace Dialysis Center",
        m('H', &p.member),
        r.pick(PAYERS),
        m('M', &p.mrn),
        signed(s)
    );
    t
}

/// A general dentist's referral form to an oral surgeon, its fields in any order.
fn dentref(r: &mut Rng, c: &Ctx) -> String {
    if r.chance(40) {
        return dentref_letter(r, c);
    }
    let p = c.any(r);
    let s = &STAFF[9];
    let pano = visit(r);
    let (rel, _) = relative(r);
    let mut fields = [
        format!(
            "Patient ........ {}",
            last_first(&p, r.chance(40), r.chance(50))
        ),
        format!("Birthdate ...... {}", m('D', &p.dob.any(r))),
        format!("Home phone ..... {}", m('T', &p.phone.any(r))),
        format!(
            "Responsible party: {}",
            m('P', &format!("{rel} {}", p.family))
        ),
        format!(
            "Subscriber ID .. {} ({})",
            m('H', &p.member),
            "Delta Dental"
        ),
        format!("E-mail ......... {}", m('E', &p.email)),
        format!("Pano taken ..... {} (attached)", m('D', &pano.us())),
    ];
    // Shuffle the fields: forms differ by office.
    for i in (1..fields.len()).rev() {
        let j = r.range(0, i as u32) as usize;
        fields.swap(i, j);
    }
    let teeth = r.pick(&["#1, #16, #17, #32", "#30", "#19 and #20", "#8 (avulsed)"]);
    format!(
        "CEDAR HOLLOW DENTAL — REFERRAL TO SPECIALIST\nTo: Ridgeline Oral Surgery   Fax {}\n\n{}\n\nTeeth: {teeth}   Reason: {}\nPremedicate: {}\nReferring: {} {}, {}\nDate: {}",
        m('F', "412-555-0148"),
        fields.join("\n"),
        r.pick(&[
            "impacted third molars, pericoronitis",
            "non-restorable, extraction + ridge preservation",
            "implant consult",
            "biopsy of lesion L lateral tongue"
        ]),
        r.pick(&["amoxicillin 2 g 1 h prior", "none", "clindamycin 600 mg"]),
        s.given,
        s.family,
        s.title,
        m('D', &visit(r).short())
    )
}

/// A physical therapist's plan-of-care reply to the referring physician, by e-mail.
fn ptreply(r: &mut Rng, c: &Ctx) -> String {
    let p = c.any(r);
    let s = &STAFF[8];
    let doc = staff(r);
    let start = visit(r);
    let recert = visit(r);
    let sent = visit(r);
    let (rel, role) = relative(r);
    format!(
        "From: {} {} <{}>\nTo: {}\nDate: {}\nSubject: POC update – {} – recert due {}\n\n{},\n\nQuick update on {} ({} {}), seen {} of 12 authorized visits since {}. {} reports less pain on stairs, {} improved from 92 to 110 degrees. We are working on 97110/97140 and a home program; {}.\n\n{} ({}) asked whether {} can also be seen on a {} — reachable on {}.\n\nPlan: continue 2x/week 4 weeks; next visit {}.\n\nNkechi Adeyemi, DPT\nCedar Hollow Physical Therapy | fax {}",
        s.given,
        s.family,
        m('E', "nadeyemi@cedarhollowpt.org"),
        // A practice's own mailboxes are e-mail addresses like any other.
        m(
            'E',
            &if doc.title == "Dr." {
                format!(
                    "{}.{}@cedarhollowhealth.org",
                    doc.given.to_lowercase(),
                    ascii_lower(doc.family)
                )
            } else {
                "referrals@cedarhollowhealth.org".to_string()
            }
        ),
        mail_date(r, &sent),
        last_first(&p, false, false),
        m('D', &recert.md()),
        dr(doc),
        m('P', p.called()),
        m('P', &p.full()),
        m('D', &p.dob.short()),
        r.range(4, 11),
        m('D', &start.long()),
        if p.female { "She" } else { "He" },
        r.pick(&["knee flexion", "shoulder abduction", "hip flexion"]),
        r.pick(&[
            "Phalen's test still positive",
            "no Trendelenburg gait today",
            "Thomas test negative",
            "pain 3/10 after ibuprofen 600 mg"
        ]),
        m('P', &rel),
        role,
        m('P', p.called()),
        r.pick(&["Saturday", "Monday evening", "Thursday"]),
        m('T', &p.phone.any(r)),
        m('D', &visit(r).dmy()),
        m('F', &Phone::new(r).any(r))
    )
}

/// An urgent-care visit summary sent to the primary care office.
fn ucxfer(r: &mut Rng, c: &Ctx) -> String {
    let p = c.any(r);
    let s = staff(r);
    let day = visit(r);
    let room = r.range(1, 12);
    let mvc = r.chance(50);
    let mut t = format!(
        "CEDAR HOLLOW URGENT CARE – VISIT SUMMARY FOR PCP\nDOS: {}   Arrived 17:42   Exam Rm {}\nPt: {}   DOB: {}   Acct#: {}\n",
        m('D', &day.us()),
        m('O', &room.to_string()),
        name_mi(&p),
        m('D', &p.dob.any(r)),
        m('A', &p.acct)
    );
    t += &format!(
        "ID checked: PA DL {}\nHome: {}\nCell: {}\n\n",
        m('L', &licence(r)),
        address_line(&p),
        m('T', &p.phone.any(r))
    );
    if mvc {
        let car = r.pick(&[
            "2014 Honda Civic",
            "silver Ford Escape",
            "black Ram 1500",
            "white Subaru Outback",
        ]);
        t += &format!(
            "HPI: {} restrained driver, low-speed rear-end MVC today, {car} {}. C-spine cleared by NEXUS; Spurling's negative.\n",
            age_text(r, &p),
            if r.chance(60) {
                format!("plate {}", m('W', &plate(r)))
            } else {
                format!("(VIN {} per police report)", m('W', &vin(r)))
            }
        );
    } else {
        t += &format!(
            "HPI: {} with fall at home, wrist pain; x-ray shows {}. Splinted; ibuprofen 600 mg.\n",
            age_text(r, &p),
            r.pick(&["a Colles fracture", "no fracture", "a Smith fracture"])
        );
    }
    let (rel, role) = relative(r);
    t += &format!(
        "Emergency contact: {} ({role}) {}\nPlease see within 1 week. — {}\nCC: {}",
        m('P', &format!("{rel} {}", p.family)),
        m('T', &Phone::new(r).any(r)),
        dr(s),
        PRACTICE
    );
    t
}

// ---------------------------------------------------------------------------------------
// HL7 v2 feeds.

fn ts(r: &mut Rng, d: &Day) -> String {
    format!(
        "{}{:02}{:02}{:02}",
        d.hl7(),
        r.range(0, 23),
        r.range(0, 59),
        r.range(0, 59)
    )
}

fn hl7_addr(p: &Pat) -> String {
    match &p.unit {
        Some(u) => format!(
            "{}^{}^{}^{}^{}",
            m('R', &p.street.to_uppercase()),
            m('R', &u.to_uppercase()),
            m('R', &p.town.to_uppercase()),
            p.state,
            m('Z', &p.zip)
        ),
        None => format!(
            "{}^^{}^{}^{}",
            m('R', &p.street.to_uppercase()),
            m('R', &p.town.to_uppercase()),
            p.state,
            m('Z', &p.zip)
        ),
    }
}

fn hl7_phone(p: &Pat) -> String {
    m(
        'T',
        &format!("({}){}-{}", p.phone.area, p.phone.exch, p.phone.line),
    )
}

fn pid(r: &mut Rng, p: &Pat) -> String {
    format!(
        "PID|1||{}^^^CHHP^MR||{}||{}|{}|||{}||{}|||||{}",
        m('M', &p.mrn),
        hl7_name(p),
        m('D', &p.dob.hl7()),
        if p.female { "F" } else { "M" },
        hl7_addr(p),
        hl7_phone(p),
        if r.chance(60) {
            m('A', &p.acct)
        } else {
            String::new()
        }
    )
}

/// A transcribed document (MDM^T02) whose text carries HL7 escapes next to names.
fn hl7mdm(r: &mut Rng, c: &Ctx) -> String {
    let p = c.any(r);
    let s = staff(r);
    let d = visit(r);
    let (rel, role) = relative(r);
    let stamp = ts(r, &d);
    format!(
        "MSH|^~\\&|DICTATE|CHHP|EHR|CHHP|{}||MDM^T02|MDM{}|P|2.5.1\rEVN|T02|{}\r{}\rPV1|1|O|CHFM^^^CHFM\rTXA|1|CN|TX|{}|{}^{}^^^^{}||{}||||DOC{}||||||AU\rOBX|1|TX|||Office visit {}\\T\\{} {} present ({}).||||||F\rOBX|2|TX|||{} {} reports {}\\S\\ no falls since {}. BP 138/82\\F\\HR 71.||||||F\rOBX|3|TX|||Meds: {}\\R\\{}. Call {} at {} with results.||||||F\r",
        m('D', &stamp),
        r.digits(6),
        m('D', &stamp),
        pid(r, &p),
        m('D', &stamp),
        s.family.to_uppercase(),
        s.given.to_uppercase(),
        s.title.trim_end_matches('.').to_uppercase(),
        m('D', &ts(r, &d)),
        r.digits(7),
        m('D', &d.us()),
        role,
        m('P', &format!("{rel} {}", p.family)),
        r.pick(&["POA", "interprets", "drove"]),
        title(&p),
        m('P', &p.family),
        r.pick(EPONYMS),
        m('D', &visit(r).md()),
        r.pick(DRUGS),
        r.pick(DRUGS),
        m('P', &rel),
        m('T', &Phone::new(r).any(r))
    )
}

/// An order (ORM^O01) from an inpatient bed: PV1 unit^room^bed, the account in PID-18.
fn hl7orm(r: &mut Rng, c: &Ctx) -> String {
    let p = c.any(r);
    let s = staff(r);
    let d = visit(r);
    let room = format!("{}{:02}", r.range(2, 6), r.range(1, 40));
    let bed = r.pick(&["A", "B", "1", "2"]).to_string();
    let (rel, role) = relative(r);
    format!(
        "MSH|^~\\&|CPOE|CHHP|LIS|ACL|{}||ORM^O01|{}|P|2.3\r{}\rPV1|1|I|{}W^{}^{}^CHHP||||{}^{}^{}\rNK1|1|{}^{}|{}|||{}\rORC|NW|ORD{}|||||^^^{}^^R\rOBR|1|ORD{}||{}|||{}\rNTE|1||Collect before {} dose; {} aware.\r",
        m('D', &ts(r, &d)),
        r.digits(8),
        pid(r, &p),
        r.range(2, 6),
        m('O', &room),
        m('O', &bed),
        r.digits(7),
        s.family.to_uppercase(),
        s.given.to_uppercase(),
        m('P', &p.family.to_uppercase()),
        m('P', &rel.to_uppercase()),
        role.to_uppercase(),
        m('T', &Phone::new(r).any(r)),
        r.digits(6),
        m('D', &ts(r, &d)),
        r.digits(6),
        r.pick(&[
            "CBC^COMPLETE BLOOD COUNT",
            "BMP^BASIC METABOLIC PANEL",
            "PTH^PARATHYROID HORMONE",
            "INR^PROTHROMBIN TIME"
        ]),
        m('D', &ts(r, &d)),
        r.pick(DRUGS),
        m('P', &rel)
    )
}

/// A charge feed (DFT^P03): FT1 lines with CPT codes, a guarantor (GT1) and insurance (IN1).
fn hl7dft(r: &mut Rng, c: &Ctx) -> String {
    let p = c.any(r);
    let d = visit(r);
    let (rel, _) = relative(r);
    let gt_ssn = format!("{}{}{}", r.range(1, 6), r.digits(2), r.digits(6));
    let payer = r.pick(PAYERS).to_uppercase();
    let mut t = format!(
        "MSH|^~\\&|PM|CHHP|BILLING|CHHP|{}||DFT^P03|DFT{}|P|2.4\rEVN|P03|{}\r{}\r",
        m('D', &ts(r, &d)),
        r.digits(6),
        m('D', &ts(r, &d)),
        pid(r, &p)
    );
    for (i, code) in [
        "99214^OFFICE O/P EST MOD 30 MIN",
        "36415^ROUTINE VENIPUNCTURE",
        "90662^FLU VACC HD",
    ]
    .iter()
    .take(r.range(1, 3) as usize)
    .enumerate()
    {
        t += &format!(
            "FT1|{}|||{}|{}|CG|{code}|||1|{}.00||||||||I10^Z23\r",
            i + 1,
            m('D', &d.hl7()),
            m('D', &d.hl7()),
            r.range(18, 240)
        );
    }
    t += &format!(
        "GT1|1||{}^{}||{}|{}||{}||||{}\rIN1|1|{}|{}|{}|PO BOX 981106^^EL PASO^TX^79998||||GRP{}|||||||{}|01|{}||||||||||||||||{}\r",
        m('P', &p.family.to_uppercase()),
        m('P', &rel.to_uppercase()),
        hl7_addr(&p),
        hl7_phone(&p),
        m(
            'D',
            &Day {
                y: r.range(1950, 1990),
                m: r.range(1, 12),
                d: r.range(1, 28)
            }
            .hl7()
        ),
        m('S', &gt_ssn),
        r.digits(3),
        r.digits(5),
        payer,
        r.digits(6),
        hl7_name(&p),
        m('D', &p.dob.hl7()),
        m('H', &p.member)
    );
    t
}

/// An update (ADT^A08) with repeated fields: MRN~SSN, a name~an alias, two addresses, two
/// phones and an e-mail.
fn hl7rep(r: &mut Rng, c: &Ctx) -> String {
    let p = c.any(r);
    let d = visit(r);
    let alias = if p.female {
        (*r.pick(&["DUNBAR", "O'HARA", "MACRAE", "VAN DYKE", "PRICE"])).to_string()
    } else {
        p.family.to_uppercase()
    };
    let alias_given = p.nick.unwrap_or(&p.given).to_uppercase();
    let cell = Phone::new(r);
    let (rel, role) = relative(r);
    let po = format!("PO BOX {}", r.range(10, 999));
    format!(
        "MSH|^~\\&|REG|CHHP|ALL|CHHP|{}||ADT^A08|{}|P|2.5\rEVN|A08|{}\rPID|1||{}^^^CHHP^MR~{}^^^SSA^SS||{}~{}^{}^^^^^{}||{}|{}|||{}~{}^^{}^{}^{}^USA^M||{}~{}^PRN^CP~^NET^Internet^{}\rNK1|1|{}^{}|{}|{}|{}\rPV1|1|O|CHFM\r",
        m('D', &ts(r, &d)),
        r.digits(9),
        m('D', &ts(r, &d)),
        m('M', &p.mrn),
        m('S', &p.ssn.replace('-', "")),
        hl7_name(&p),
        m('P', &alias),
        m('P', &alias_given),
        if p.female { "M" } else { "N" },
        m('D', &p.dob.hl7()),
        if p.female { "F" } else { "M" },
        hl7_addr(&p),
        m('R', &po),
        m('R', &p.town.to_uppercase()),
        p.state,
        m('Z', &p.zip),
        hl7_phone(&p),
        m('T', &format!("({}){}-{}", cell.area, cell.exch, cell.line)),
        m('E', &p.email),
        m('P', &p.family.to_uppercase()),
        m('P', &rel.to_uppercase()),
        role.to_uppercase(),
        hl7_addr(&p),
        m('T', &Phone::new(r).any(r))
    )
}

// ---------------------------------------------------------------------------------------
// Voicemail and call transcripts.

/// An answering service's overnight log: two or three calls, the operator's upper-case
/// shorthand.
fn answsvc(r: &mut Rng, c: &Ctx) -> String {
    let night = visit(r);
    let s = staff(r);
    let mut t = format!(
        "NIGHTWATCH ANSWERING SVC — OVERNIGHT LOG\nACCT: CEDAR HOLLOW FAMILY MEDICINE   NIGHT OF {}   ON CALL: {}\n",
        m('D', &night.short()),
        dr(s).to_uppercase()
    );
    for i in 0..r.range(2, 3) {
        let p = c.any(r);
        let (rel, role) = relative(r);
        let cb = Phone::new(r);
        t += &format!(
            "\n#{} {:02}:{:02} CLR: {} ({}) RE PT {} DOB {}\n   CB# {}",
            i + 1,
            r.range(0, 5),
            r.range(0, 59),
            m(
                'P',
                &format!("{} {}", rel.to_uppercase(), p.family.to_uppercase())
            ),
            role.to_uppercase(),
            m('P', &p.full().to_uppercase()),
            m('D', &p.dob.short()),
            m('T', &cb.any(r))
        );
        t += &match r.range(0, 3) {
            0 => format!(
                "\n   MSG: PT FELL GETTING OUT OF CAR IN DRIVEWAY, CLR CANNOT LIFT. CAR {} {}. ADV 911.\n",
                r.pick(&["GRN JEEP", "BLU FORD", "TAN BUICK"]),
                m('W', &plate(r))
            ),
            1 => format!(
                "\n   MSG: OUT OF {} , PHARM CLOSED. PT IS {} Y/O. PAGED DR, RX SENT TO 24H CVS.\n",
                r.pick(DRUGS).to_uppercase(),
                {
                    let a = p.age_in_2026();
                    if a > 89 {
                        m('G', &a.to_string())
                    } else {
                        a.to_string()
                    }
                }
            ),
            2 => format!(
                "\n   MSG: WANTS TO CXL {} APPT, WILL CALL BACK. ALT# {}\n",
                m('D', &visit(r).md().to_uppercase()),
                m('T', &p.phone.any(r))
            ),
            _ => format!(
                "\n   MSG: HOSPICE PT, {} AT {} ({}). FAMILY REQ CALL.\n",
                r.pick(&["BREATHING CHANGED", "AGITATED"]),
                m('R', &p.street_line().to_uppercase()),
                m('R', &p.town.to_uppercase())
            ),
        };
    }
    t += "\nEND OF LOG — OPERATOR 14";
    t
}

/// A nurse line's triage call, as an automatic transcript: lower case, a spelled surname,
/// spoken date of birth and call-back number.
fn triage(r: &mut Rng, c: &Ctx) -> String {
    let p = c.any(r);
    let (rel, _) = relative(r);
    let rn = &STAFF[r.range(5, 6) as usize];
    let d = visit(r);
    let caller_is_patient = r.chance(35);
    let mut t = format!(
        "nurse line — call transcript (auto) {} 21:{:02}\n\nrn {}: cedar hollow nurse line this is {}, who am i speaking with\n",
        m('D', &d.iso()),
        r.range(0, 59),
        rn.given.to_lowercase(),
        rn.given.to_lowercase()
    );
    if caller_is_patient {
        t += &format!(
            "caller: hi it's {}, i'm a patient of dr {}\nrn: can you spell your last name\ncaller: {}\n",
            lower_name(&p),
            staff(r).family.to_lowercase(),
            m('P', &spelled(r, &p.family))
        );
    } else {
        let pron = if p.female { "my mom" } else { "my dad" };
        t += &format!(
            "caller: yeah hi this is {}, i'm calling about {pron}, {}\nrn: and how do you spell the last name\ncaller: {}\n",
            m(
                'P',
                &format!("{} {}", rel.to_lowercase(), p.family.to_lowercase())
            ),
            m('P', &p.given.to_lowercase()),
            m('P', &spelled(r, &p.family))
        );
    }
    t += &format!(
        "rn: and the date of birth\ncaller: {}\nrn: ok what's going on tonight\ncaller: {} since {}, and {} on {}\n",
        m(
            'D',
            &if r.chance(50) {
                p.dob.spoken(r, true)
            } else {
                p.dob.spoken_numeric(r)
            }
        ),
        r.pick(&[
            "fever of a hundred and one",
            "the left leg is swollen and red",
            "vomiting",
            "dizzy when standing up"
        ]),
        r.pick(&["tuesday", "this morning", "yesterday"]),
        if caller_is_patient {
            "i'm"
        } else if p.female {
            "she's"
        } else {
            "he's"
        },
        r.pick(DRUGS)
    );
    t += &format!(
        "rn: what number can the doctor call back on\ncaller: {}\nrn: okay, i'm booking {} at eight forty with dr {}, go to urgent care if worse\n",
        m('T', &p.phone.spoken(r)),
        m('D', &visit(r).spoken(r, false)),
        staff(r).family.to_lowercase()
    );
    t
}

/// A pharmacist's call-back voicemail about a prior authorization.
fn pharmcb(r: &mut Rng, c: &Ctx) -> String {
    if r.chance(45) {
        return pharmcb_refill(r, c);
    }
    let p = c.any(r);
    let ph = &STAFF[10];
    let store = r.pick(PHARMACIES);
    let from = Phone::new(r);
    let fax = Phone::new(r);
    let received = visit(r);
    format!(
        "Voicemail from {} · {} 4:{:02} PM · 0:52\nTranscription (may contain errors):\n\"hi this is {} the pharmacist at {} on route 8, calling for doctor {} about {} {}, date of birth {}, we got the script for {} but {} wants a prior auth, the member id they have is {}, you can call us back at {} or fax the pa form to {}, thanks so much bye\"",
        m('T', &from.any(r)),
        m('D', &received.us()),
        r.range(0, 59),
        ph.given.to_lowercase(),
        store.to_lowercase(),
        staff(r).family.to_lowercase(),
        r.pick(&["a patient", "patient", "your patient"]),
        lower_name(&p),
        m('D', &p.dob.spoken(r, true)),
        r.pick(DRUGS),
        r.pick(PAYERS).to_lowercase(),
        m('H', &p.member.to_lowercase()),
        m('T', &from.spoken(r)),
        m('F', &fax.spoken(r))
    )
}

fn spoken_street(r: &mut Rng, p: &Pat) -> String {
    let (num, rest) = p.street.split_once(' ').unwrap_or(("1", &p.street));
    let n: u32 = num.parse().unwrap_or(1);
    let num = if (100..10_000).contains(&n) && r.chance(70) {
        format!("{} {}", number_words(n / 100), number_words(n % 100))
    } else {
        spoken_digits(r, num)
    };
    format!(
        "{num} {}",
        rest.to_lowercase()
            .replace("ln", "lane")
            .replace(" dr", " drive")
    )
}

/// A relative's voicemail: "this is … calling about my mother …", spoken address, room and
/// e-mail.
fn vmkin(r: &mut Rng, c: &Ctx) -> String {
    let p = c.any(r);
    let (rel, _) = relative(r);
    let who = if p.female { "my mother" } else { "my father" };
    let room = format!(
        "{} {}",
        number_words(r.range(1, 4)),
        number_words(r.range(10, 30))
    );
    let mut t = format!(
        "[voicemail {} · main line · transcribed]\nhi um this is {} calling about {who} {}, {} last name {}, ",
        m('D', &visit(r).short()),
        m(
            'P',
            &format!("{} {}", rel.to_lowercase(), p.family.to_lowercase())
        ),
        m('P', &p.given.to_lowercase()),
        r.pick(&["that's", "the"]),
        m('P', &spelled(r, &p.family))
    );
    t += &format!("birthday {}. ", m('D', &p.dob.spoken(r, true)));
    t += &match r.range(0, 2) {
        0 => format!(
            "so {} went into the rehab at lakeview after the hospital, {} in room {}, and they said you need to send the orders for the {}, ",
            if p.female { "she" } else { "he" },
            if p.female { "she's" } else { "he's" },
            m('O', &room),
            r.pick(&["walker", "foley catheter", "hospital bed"])
        ),
        1 => format!(
            "{} is {} now and {} moved in with me at {}, so please update the address, ",
            if p.female { "she" } else { "he" },
            spoken_age(&p),
            if p.female { "she" } else { "he" },
            m('R', &spoken_street(r, &p))
        ),
        _ => format!(
            "can you email me the after visit summary, it's {}, ",
            spoken_email(&p)
        ),
    };
    t += &format!(
        "my number is {}, again {}, thank you",
        m('T', &p.phone.spoken(r)),
        m('T', &p.phone.digits())
    );
    t
}

// ---------------------------------------------------------------------------------------
// Scheduling chats.

/// The dialysis unit's chair board chat: lower case, "mrs k", chair numbers (Rooms).
fn dialchat(r: &mut Rng, c: &Ctx) -> String {
    if r.chance(45) {
        return dialchat_whatsapp(r, c);
    }
    let d = visit(r);
    let a = c.any(r);
    let b = c.any(r);
    let e = c.any(r);
    let (rel, role) = relative(r);
    let ini = b
        .family
        .chars()
        .next()
        .map(|ch| ch.to_lowercase().to_string())
        .unwrap_or_default();
    let chair = |r: &mut Rng| m('O', &r.range(1, 24).to_string());
    format!(
        "#millrace-chairs · {}\n[05:41] tamsin: {} {} called out sick, chair {} open 2nd shift\n[05:43] jorge: put {} {} in {}? {} was on chair {} w/ the clotted access\n[05:44] tamsin: ok. {} = {} btw, new pt transferring from lakemont, first tx {}\n[05:52] jorge: {}'s {} {} says ride van comes 10:15 not 9:45, cb {}\n[06:02] corinne: fyi epo protocol changed, {} for everyone on ESA\n[06:05] tamsin: 👍",
        m('D', &d.dmy()),
        if a.female { "mrs" } else { "mr" },
        m('P', &a.family.to_lowercase()),
        chair(r),
        if b.female { "mrs" } else { "mr" },
        m('P', &ini),
        chair(r),
        if b.female { "she" } else { "he" },
        chair(r),
        m('P', &ini),
        lower_name(&b),
        m('D', &visit(r).short()),
        m('P', &e.called().to_lowercase()),
        role,
        m('P', &rel.to_lowercase()),
        m('T', &Phone::new(r).any(r)),
        r.pick(DRUGS)
    )
}

/// A physical therapy clinic's Slack export: staff handles, nicknames, reschedules.
fn ptchat(r: &mut Rng, c: &Ctx) -> String {
    if r.chance(45) {
        return frontdesk_text(r, c);
    }
    let a = c.any(r);
    let b = c.any(r);
    let d1 = visit(r);
    let d2 = visit(r);
    let handle = |s: &Staff| format!("{}.{}", s.given.to_lowercase(), s.family.to_lowercase());
    format!(
        "{}  9:02 AM\ncan someone move {} ({}) from thurs to {}? {} has a cardio f/u\n{}  9:05 AM\ndone, fri {} at 3:15 w/ {}. also {} — the new {} eval — her email bounced, new one is {}\n{}  9:07 AM\nthx. {}'s auth ends {}, {} visits left, ask about {}\n{}  9:11 AM\n{} no-showed again, 3rd time. {} said call mom {} first",
        handle(&STAFF[7]),
        m('P', &a.called().to_lowercase()),
        m('P', &a.family.to_lowercase()),
        m('D', &format!("{}/{}", d1.m, d1.d)),
        if a.female { "she" } else { "he" },
        handle(&STAFF[11]),
        m('D', &format!("{}/{}", d1.m, d1.d)),
        STAFF[8].given.to_lowercase(),
        m('P', &b.given.to_lowercase()),
        r.pick(&["knee", "rotator cuff", "vestibular", "post-op ACL"]),
        m('E', &b.email),
        handle(&STAFF[7]),
        m('P', &a.called().to_lowercase()),
        m('D', &d2.md().to_lowercase()),
        r.range(1, 6),
        r.pick(PAYERS),
        handle(&STAFF[8]),
        m('P', &b.called().to_lowercase()),
        STAFF[8].given.to_lowercase(),
        m('T', &b.phone.any(r))
    )
}

/// A Teams channel exported to CSV: ISO timestamps (the date part labelled), quoted messages.
fn teamsexp(r: &mut Rng, c: &Ctx) -> String {
    let mut t = String::from("Timestamp,Sender,Message\n");
    for _ in 0..r.range(3, 4) {
        let p = c.any(r);
        let d = visit(r);
        let s = staff(r);
        let msg = match r.range(0, 3) {
            0 => format!(
                "Can someone call back {} re {} 10:30 appt - {}",
                m('P', &p.full()),
                m('D', &visit(r).short()),
                m('T', &p.phone.any(r))
            ),
            1 => format!(
                "{} {} needs a Polish interpreter {}, pt DOB {}",
                title(&p),
                m('P', &p.family),
                m('D', &visit(r).long()).replace(',', ""),
                m('D', &p.dob.us())
            ),
            2 => format!(
                "moved {} to Rm {} for the wheelchair, MRN {}",
                m('P', &p.given),
                m(
                    'O',
                    &format!("{}{}", r.range(1, 3), r.pick(&["A", "B", "C"]))
                ),
                m('M', &p.mrn)
            ),
            _ => format!(
                "{} ({}) wants all slots after 2pm; email {}",
                m('P', &p.full()),
                age_text(r, &p),
                m('E', &p.email)
            ),
        };
        t += &format!(
            "{}T{:02}:{:02}:{:02}Z,{} {},\"{}\"\n",
            m('D', &d.iso()),
            r.range(12, 23),
            r.range(0, 59),
            r.range(0, 59),
            s.given,
            s.family,
            msg.replace('"', "\"\"")
        );
    }
    t
}

// ---------------------------------------------------------------------------------------
// Billing mail.

/// A payer's denial letter: member block, claim number, reasons, appeal rights.
fn denial(r: &mut Rng, c: &Ctx) -> String {
    if r.chance(40) {
        return eob_table(r, c);
    }
    let p = c.any(r);
    let payer = r.pick(PAYERS);
    let dos = visit(r);
    let sent = visit(r);
    let claim = format!("{}{}", r.range(2026, 2026), r.digits(9));
    format!(
        "{payer}\nClaims Department · PO Box 14079 · Lexington KY 40512\n\n{}\n\n{}\n{}\n\nNOTICE OF ADVERSE BENEFIT DETERMINATION\n\nMember: {}      Member ID: {}\nClaim number: {}      Date(s) of service: {} – {}\nProvider: {}\nService: {} ({})\n\nWe denied this claim. Reason: {}. Remark code N{}; CARC CO-{}.\n\nYou may appeal within 180 days of {}. Call Member Services at {} (TTY 711), or write to us at the address above. Your account of record: {}.",
        m('D', &sent.long()),
        m(
            'P',
            &format!("{} {}", p.given.to_uppercase(), p.family.to_uppercase())
        ),
        address_block(&p).to_uppercase(),
        name_mi(&p),
        m('H', &p.member),
        m('A', &claim),
        m('D', &dos.us()),
        m('D', &dos.us()),
        r.pick(SITES),
        r.pick(&[
            "97110 therapeutic exercise",
            "D7240 impacted tooth removal",
            "90935 hemodialysis",
            "72148 MRI lumbar spine"
        ]),
        r.pick(&["M54.16", "K01.1", "N18.6", "S52.501A"]),
        r.pick(&[
            "no prior authorization on file",
            "not medically necessary per our policy",
            "frequency exceeds plan limits",
            "the member was not eligible on the date of service"
        ]),
        r.range(100, 800),
        r.pick(&["50", "197", "119", "27"]),
        m('D', &sent.md()),
        m('T', &format!("1-800-{}-{}", r.range(200, 999), r.digits(4))),
        m('A', &p.acct)
    )
}

/// A collection agency's notice: balance, a payment link with its token, a card form.
fn collect(r: &mut Rng, c: &Ctx) -> String {
    if r.chance(35) {
        return pay_text(r, c);
    }
    let p = c.any(r);
    let token: String = (0..10)
        .map(|_| {
            let x = r.range(0, 35) as u8;
            char::from(if x < 10 { b'0' + x } else { b'a' + x - 10 })
        })
        .collect();
    let sent = visit(r);
    let due = visit(r);
    let bal = format!("{}.{:02}", r.range(80, 2400), r.range(0, 99));
    format!(
        "KEYSTONE RECOVERY GROUP\nThis is an attempt to collect a debt.\n\n{}\n\n{}\n{}\n\nOriginal creditor: {PRACTICE}\nCreditor account: {}     Our file #: {}\nBalance due: ${bal}     Date of service: {}\n\nPay by {} at {} or call {}.\nTo pay by card, complete below:\nCard number: {}   Exp: {:02}/{}   Name on card: {}\nDisputes: email {} within 30 days.",
        m('D', &sent.us()),
        m('P', &p.full()),
        address_block(&p),
        m('A', &p.acct),
        m('A', &format!("KRG-{}", r.digits(7))),
        m('D', &visit(r).us()),
        m('D', &due.long()),
        m('U', &format!("https://pay.keystonerecovery.com/p/{token}")),
        m('T', &format!("1-888-{}-{}", r.range(200, 999), r.digits(4))),
        m('C', &luhn_card(r)),
        r.range(1, 12),
        r.range(27, 31),
        m(
            'P',
            &format!("{} {}", p.given.to_uppercase(), p.family.to_uppercase())
        ),
        m('E', "disputes@keystonerecovery.com")
    )
}

/// A patient portal message export about a bill: sender, proxy, login IP, a card typed in.
fn portalbill(r: &mut Rng, c: &Ctx) -> String {
    let p = c.any(r);
    let sent = visit(r);
    let (rel, role) = relative(r);
    let proxy = r.chance(50);
    let mut t = format!(
        "=== MyCedar portal · message export ===\nThread: Billing question (#{})\nPatient: {} · MRN {} · DOB {}\n",
        r.digits(6),
        last_first(&p, false, false),
        m('M', &p.mrn),
        m('D', &p.dob.iso())
    );
    t += &format!(
        "Sent by: {}\nSent: {} {}:{:02} PM from {}\n\n",
        if proxy {
            format!("{} (proxy, {role})", m('P', &format!("{rel} {}", p.family)))
        } else {
            m('P', &p.full())
        },
        m('D', &sent.us()),
        r.range(1, 11),
        r.range(0, 59),
        m('I', &ip(r))
    );
    t += &match r.range(0, 2) {
        0 => format!(
            "Hi, I got a statement for {} for the visit on {} but {} is primary, member id {}. Can you rebill? Account {}.",
            m('P', p.called()),
            m('D', &visit(r).md()),
            r.pick(PAYERS),
            m('H', &p.member),
            m('A', &p.acct)
        ),
        1 => format!(
            "please just put the balance on my card {} exp {}/{} and email the receipt to {}. thx",
            m('C', &luhn_card(r)),
            r.range(1, 12),
            r.range(27, 30),
            m('E', &p.email)
        ),
        _ => format!(
            "Here are photos of the EOB: {} — the copay was already paid on {}.",
            m(
                'U',
                &format!("https://photos.app.goo.gl/{}{}", r.letters(6), r.digits(5))
            ),
            m('D', &visit(r).long())
        ),
    };
    t += &format!(
        "\n\n— Reply from Cedar Hollow Billing ({}): Thank you, we will review and reply within 2 business days.",
        m('D', &visit(r).us())
    );
    t
}

/// A dental office's billing e-mail thread with quoted replies and flast@ addresses.
fn dentbill(r: &mut Rng, c: &Ctx) -> String {
    let p = c.any(r);
    let d1 = visit(r);
    let d2 = visit(r);
    let est = format!("{}.00", r.range(180, 3400));
    format!(
        "From: Cedar Hollow Dental Billing <{}>\nTo: {} <{}>\nSent: {}\nSubject: RE: pre-estimate for {}\n\nHi {},\n\nDelta Dental returned the pre-estimate for the crown on #{}: plan pays ${est} of the fee; your portion is due at seating. Subscriber ID {} on file. We can split it across two cards if you like.\n\nBilling Team\n\n> On {}, {} <{}> wrote:\n> can you tell me what i'll owe for the crown? the appt on {} is with Dr Fairweather. my\n> husband's card ends 4471 if that helps. — {}\n",
        m('E', "billing@cedarhollowdental.com"),
        m('P', &p.full()),
        m('E', &p.email),
        mail_date(r, &d2),
        m('P', &format!("{} {}", p.given, p.family)),
        m('P', &p.given),
        r.range(2, 31),
        m('H', &p.member),
        m('D', &d1.long()),
        m('P', &p.full()),
        m('E', &p.email),
        m('D', &visit(r).md()),
        m('P', &p.called().to_lowercase())
    )
}

// ---------------------------------------------------------------------------------------
// Other mail about patients.

/// A hospice nurse's visit note, with OCR-like slips where it was scanned.
fn hospice(r: &mut Rng, c: &Ctx) -> String {
    let note = hospice_note(r, c);
    if r.chance(35) { ocr(r, &note) } else { note }
}

/// A scanned page read back by OCR: now and then a letter read as a look-alike, in the
/// identifiers too (their labels cover what was read).
fn ocr(r: &mut Rng, marked: &str) -> String {
    let mut out = String::with_capacity(marked.len());
    let mut keep: u8 = 0;
    for ch in marked.chars() {
        if ch == '«' {
            // The mark, its kind code and its colon stay as they are.
            keep = 3;
        }
        if keep > 0 || ch == '»' {
            keep = keep.saturating_sub(1);
            out.push(ch);
            continue;
        }
        let swapped = match ch {
            'l' => '1',
            'I' => 'l',
            'O' | 'o' => '0',
            'e' => 'c',
            'S' => '5',
            'B' => '8',
            _ => ch,
        };
        out.push(if swapped != ch && r.chance(6) {
            swapped
        } else {
            ch
        });
    }
    out
}

fn hospice_note(r: &mut Rng, c: &Ctx) -> String {
    let p = c.older(r);
    let (rel, role) = relative(r);
    let d = visit(r);
    let s = &STAFF[11];
    let facility = r.chance(50);
    let place = if facility {
        format!(
            "Brightwood Personal Care, rm {}",
            m('O', &format!("{}-{}", r.range(1, 2), r.range(100, 140)))
        )
    } else {
        format!("home, {}", address_line(&p))
    };
    format!(
        "THREE RIVERS HOSPICE — RN VISIT NOTE\nPatient: {}   DOB: {}   MR#: {}\nVisit: {} 13:20–14:05   Location: {place}\n\nS: {} ({role}) reports pt slept most of day, ate a few bites. {}\nO: {} pt, BP 96/58, RR 22 with pauses, mottling to knees. Hx {}.\nA: Decline consistent with disease progression; PPS 30%.\nP: Continue {}. Comfort kit in home. Chaplain visit {}. Call {} at {} with changes.\nNext RN visit {}.\n\n{} {}, {}",
        name_mi(&p),
        m('D', &p.dob.us().replace('/', "-")),
        m('M', &p.mrn),
        m('D', &d.us()),
        m('P', &rel),
        r.pick(&["No falls.", "Family tired.", "Pt asked for priest."]),
        age_text(r, &p),
        r.pick(EPONYMS),
        r.pick(&[
            "morphine sulfate 5 mg/0.25 mL q2h prn",
            "lorazepam 0.5 mg SL q4h prn",
            "haloperidol 0.5 mg prn"
        ]),
        m('D', &visit(r).md()),
        m('P', &rel),
        m('T', &p.phone.any(r)),
        m('D', &visit(r).short()),
        s.given,
        s.family,
        s.title
    )
}

/// A lab requisition: boxes and ticks, ICD-10 codes, an accession number (not labelled).
fn labreq(r: &mut Rng, c: &Ctx) -> String {
    let p = c.any(r);
    let s = doctor(r);
    let d = visit(r);
    format!(
        "ALLEGHENY CLINICAL LABS — TEST REQUISITION            Accession: {}\n--------------------------------------------------------------------\nPATIENT (last, first MI): {}      SEX: {}   DOB: {}\nADDRESS: {}\nPHONE: {}     SSN: {}\nBILL TO: [x] Insurance  {}  ID# {}   GROUP {}\n         [ ] Patient   [ ] Client\nORDERING: {} (NPI 1{})    COLLECTED: {} 07:{:02}  [x] fasting\nDX: {}   TESTS: [x] CMP  [x] Lipid  [ ] TSH  [x] HbA1c  [x] PTH intact\nNOTE: {}",
        r.digits(10),
        last_first(&p, true, true),
        if p.female { "F" } else { "M" },
        m('D', &p.dob.us()),
        address_line(&p).to_uppercase(),
        m('T', &p.phone.any(r)),
        m('S', &p.ssn),
        r.pick(PAYERS).to_uppercase(),
        m('H', &p.member),
        r.digits(6),
        dr(s),
        r.digits(9),
        m('D', &d.short()),
        r.range(0, 59),
        r.pick(&["E11.65, N18.4", "E78.5", "Z79.01", "D63.1, N18.6"]),
        r.pick(&[
            "hard stick — use butterfly",
            "pt on apixaban 5 mg BID",
            "Addison's — stress dose given",
            "call results to daughter"
        ])
    )
}

/// An imaging report: accession and exam codes not labelled; an implanted device's serial is.
fn imaging(r: &mut Rng, c: &Ctx) -> String {
    let p = c.any(r);
    let d = visit(r);
    let prior = visit(r);
    let exam = r.pick(&[
        "MRI LUMBAR SPINE WITHOUT CONTRAST",
        "CT HEAD WITHOUT CONTRAST",
        "XR CHEST 2 VIEWS",
        "US RENAL COMPLETE",
    ]);
    format!(
        "ALLEGHENY VALLEY IMAGING\nEXAM: {exam}\nPATIENT: {}   MRN: {}   DOB: {} ({})\nDATE OF EXAM: {}   ACC#: {}   ORDERING: {}\nLOCATION: {}\n\nHISTORY: {}\nDEVICE: {} serial {} — MR conditional, programmed per protocol.\nCOMPARISON: {}.\nFINDINGS: {}\nIMPRESSION: No acute abnormality. Report called to {} at 16:10.",
        last_first(&p, true, false),
        m('M', &p.mrn),
        m('D', &p.dob.us()),
        if p.age_in_2026() > 89 {
            m('G', &format!("{}", p.age_in_2026())) + "Y"
        } else {
            format!("{}Y", p.age_in_2026())
        },
        m('D', &d.dmy().to_uppercase()),
        r.digits(8),
        dr(staff(r)),
        if r.chance(50) {
            format!(
                "Inpatient, Rm {}",
                m(
                    'O',
                    &format!(
                        "{}{:02}{}",
                        r.range(3, 7),
                        r.range(1, 30),
                        r.pick(&["", "A", "B"])
                    )
                )
            )
        } else {
            "Outpatient".to_string()
        },
        r.pick(&[
            "back pain radiating to L leg",
            "fall, on apixaban",
            "cough and fever",
            "rising creatinine"
        ]),
        r.pick(&[
            "Pacemaker",
            "Spinal cord stimulator",
            "Cochlear implant",
            "Insulin pump"
        ]),
        m('V', &{
            let prefix = *r.pick(&["PJN", "SC", "CI5", "MMT"]);
            serial(r, prefix)
        }),
        m('D', &prior.us()),
        r.pick(&[
            "Mild degenerative change. Schmorl's node at L2.",
            "No hemorrhage. Chronic small vessel change.",
            "Clear lungs. Kerley B lines absent.",
            "Kidneys normal in size."
        ]),
        dr(staff(r))
    )
}

/// A probate court's notice about a guardianship of an older patient.
fn guardian(r: &mut Rng, c: &Ctx) -> String {
    let p = c.older(r);
    let (rel, role) = relative(r);
    let hearing = visit(r);
    let filed = visit(r);
    format!(
        "COURT OF COMMON PLEAS — ORPHANS' COURT DIVISION\nIN RE: GUARDIANSHIP OF {}, an alleged incapacitated person\nNo. OC-2026-{}\n\n{}\n\nTo: Medical Records, {PRACTICE}\n\nPetitioner {} ({}, Pa. driver's license {}) has asked the Court to appoint a plenary guardian of the person and estate of {} {}, {}, born {}, residing at {}.\n\nThe Court requests a physician's report on capacity, including the diagnosis ({}), before the hearing on {} at 9:30 a.m. Please send records to the petitioner's counsel, Whitcomb & Lyle LLP, or fax {}.\n\nBY THE COURT,\nClerk, Orphans' Court",
        m('P', &p.full().to_uppercase()),
        r.digits(5),
        m('D', &filed.long()),
        m('P', &format!("{rel} {}", p.family)),
        role,
        m('L', &licence(r)),
        title(&p),
        m('P', &p.family),
        age_text(r, &p),
        m('D', &p.dob.long()),
        address_line(&p),
        r.pick(&[
            "Alzheimer's dementia",
            "Lewy body dementia",
            "Korsakoff syndrome"
        ]),
        m('D', &hearing.long()),
        m('F', &Phone::new(r).any(r))
    )
}

/// Polish mail from a relative: dotted dates, a PESEL (Ssn), a Polish address.
fn polish(r: &mut Rng, c: &Ctx) -> String {
    let p = c.of(r, Origin::Polish);
    let rel_given = *r.pick(&["Anna", "Piotr", "Katarzyna", "Marek", "Ewa"]);
    let d = visit(r);
    let pesel = format!(
        "{:02}{:02}{:02}{}",
        p.dob.y % 100,
        p.dob.m,
        p.dob.d,
        r.digits(5)
    );
    format!(
        "Temat: wizyta – {}\n\nDzień dobry,\n\npiszę w imieniu {} – {} {} (ur. {}), PESEL {}. {} ma wyznaczoną wizytę na {} o 10:30 u dr. {}, ale od {} przebywa u mnie w Polsce: {}, {} {}.\nProszę o przesłanie wyników badań (kreatynina, {}) na adres {} albo faksem.\nMój telefon: {}.\n\nZ poważaniem\n{}",
        m('D', &d.dotted()),
        if p.female {
            "mojej mamy"
        } else {
            "mojego taty"
        },
        if p.female { "Pani" } else { "Pana" },
        m('P', &p.full()),
        m('D', &p.dob.dotted()),
        m('S', &pesel),
        if p.female { "Mama" } else { "Tata" },
        m(
            'D',
            &format!(
                "{} {}",
                d.d,
                [
                    "stycznia",
                    "lutego",
                    "marca",
                    "kwietnia",
                    "maja",
                    "czerwca",
                    "lipca",
                    "sierpnia",
                    "września",
                    "października",
                    "listopada",
                    "grudnia"
                ][d.m as usize - 1]
            )
        ),
        STAFF[r.range(0, 4) as usize].family,
        m('D', &visit(r).dotted()),
        m(
            'R',
            &format!(
                "ul. {} {}/{}",
                r.pick(&["Kwiatowa", "Długa", "Ogrodowa", "Słoneczna", "Mickiewicza"]),
                r.range(1, 120),
                r.range(1, 40)
            )
        ),
        m(
            'Z',
            &format!("{:02}-{:03}", r.range(0, 99), r.range(0, 999))
        ),
        m(
            'R',
            r.pick::<&str>(&["Kraków", "Rzeszów", "Nowy Sącz", "Tarnów", "Łódź"])
        ),
        r.pick(&["metformina 500 mg", "acenokumarol", "furosemid 40 mg"]),
        m('E', &make_email(r, rel_given, &p.family)),
        m(
            'T',
            &format!("+48 {} {} {}", r.digits(3), r.digits(3), r.digits(3))
        ),
        m('P', &format!("{rel_given} {}", p.family))
    )
}

/// Taglish texts from a son or daughter ("anak ni …"); "Lola", "Nanay" are kin words.
fn tagalog(r: &mut Rng, c: &Ctx) -> String {
    let p = c.of(r, Origin::Filipino);
    let rel = *r.pick(&["Joy", "Mark Anthony", "Kristine", "Paolo", "Rowena", "Jun"]);
    let kin = if p.female {
        *r.pick(&["Nanay", "Lola", "Mama"])
    } else {
        *r.pick(&["Tatay", "Lolo", "Papa"])
    };
    let d = visit(r);
    let mut t = format!(
        "{} {}:{:02} PM\nMagandang hapon po! Si {} po ito, anak ni {} (DOB {}). ",
        m('D', &d.short()),
        r.range(1, 6),
        r.range(0, 59),
        m('P', &format!("{rel} {}", p.family)),
        m('P', &p.full()),
        m('D', &p.dob.us())
    );
    t += &match r.range(0, 2) {
        0 => format!(
            "Pwede po bang ilipat ang check-up ni {kin} {} sa {}? May lagnat po siya simula Lunes, nag-paracetamol 500 mg na po.",
            m('P', &p.given),
            m('D', &visit(r).long())
        ),
        1 => format!(
            "Naka-admit po si {kin} sa St. Clair, room {}, kailangan po ba ng bagong referral? Ang {} ID niya po ay {}.",
            m('O', &format!("{}{:02}", r.range(2, 9), r.range(1, 30))),
            r.pick(PAYERS),
            m('H', &p.member)
        ),
        _ => format!(
            "Paki-send na lang po ang resulta sa email ko: {} — salamat po, si {kin} {} po kasi ay {} na at hindi na makapunta.",
            m('E', &make_email(r, rel, &p.family)),
            m('P', &p.given),
            {
                let a = p.age_in_2026();
                if a > 89 {
                    m('G', &a.to_string())
                } else {
                    a.to_string()
                }
            }
        ),
    };
    t += &format!(
        "\nAng bago po naming numero ay {}. Salamat po!",
        m('T', &p.phone.any(r))
    );
    t
}

/// Hindi written in Latin letters, WhatsApp style: "papa ji", "saal", an MRN and a number.
fn hinglish(r: &mut Rng, c: &Ctx) -> String {
    let p = c.of(r, Origin::Indian);
    let rel = *r.pick(&["Arjun", "Priya", "Neha", "Rohan", "Meera", "Karan"]);
    let d = visit(r);
    let parent = if p.female { "mummy" } else { "papa" };
    format!(
        "[{}, 8:{:02} pm] {}: Namaste doctor sahab, main {} bol {} hoon. Mere {parent} {} ji ka appointment {} ko tha, lekin woh {} saal ke hain aur chal nahi paate. Kya video call par ho sakta hai?\n[{}, 8:{:02} pm] {}: Unka MRN {} hai, DOB {}. Dawai: {}. {}\n[{}, 8:{:02} pm] {}: Mera number {} hai, email {}. Dhanyavaad 🙏",
        m('D', &d.short()),
        r.range(0, 59),
        m('P', &format!("{rel} {}", p.family)),
        m('P', rel),
        if r.chance(50) { "raha" } else { "rahi" },
        m('P', &p.full()),
        m('D', &visit(r).long()),
        spoken_age_digits(&p),
        m('D', &d.short()),
        r.range(0, 59),
        m('P', &format!("{rel} {}", p.family)),
        m('M', &p.mrn),
        m('D', &p.dob.dotted().replace('.', "/")),
        r.pick(DRUGS),
        r.pick(&[
            "BP roz subah 150 ke upar hai.",
            "Sugar fasting 180 aa rahi hai.",
            "Parkinson's ki dawai bhi chal rahi hai."
        ]),
        m('D', &d.short()),
        r.range(0, 59),
        m('P', &format!("{rel} {}", p.family)),
        m('T', &p.phone.any(r)),
        m('E', &make_email(r, rel, &p.family))
    )
}

fn spoken_age_digits(p: &Pat) -> String {
    let a = p.age_in_2026();
    if a > 89 {
        m('G', &a.to_string())
    } else {
        a.to_string()
    }
}

/// Arabic written in Latin letters and digits ("3" for ain): a hospital room, a number.
fn arabic(r: &mut Rng, c: &Ctx) -> String {
    let p = c.of(r, Origin::Arab);
    let rel = *r.pick(&["Rania", "Sami", "Karim", "Dina", "Hadi", "Maha"]);
    let kin = if p.female { "mama" } else { "baba" };
    let d = visit(r);
    format!(
        "Subject: maw3ed {}\n\nMarhaba, ana {} ({} {}). {kin} {} maw3ed yom {} ma3 Dr. {}, bas hala2 {} fi el-mustashfa, ghurfe {}, sarir {}. Mumkin t2ajjlo la {}?\nRaqam el-malaf (MRN) {}, tarikh el-milad {}. El-ta2min {} raqam {}.\nRaqami {} aw {}.\nShukran ktir,\n{}",
        m('D', &d.md()),
        m('P', &format!("{rel} {}", p.family)),
        if rel == "Sami" || rel == "Karim" || rel == "Hadi" {
            "ibn"
        } else {
            "bint"
        },
        m('P', &p.full()),
        if p.female { "3inda" } else { "3indo" },
        m('D', &d.dmy()),
        STAFF[r.range(0, 4) as usize].family,
        if p.female { "hiyye" } else { "huwwe" },
        m('O', &r.range(200, 699).to_string()),
        m('O', r.pick::<&str>(&["A", "B", "2"])),
        m('D', &visit(r).long()),
        m('M', &p.mrn),
        m('D', &p.dob.us()),
        r.pick(PAYERS),
        m('H', &p.member),
        m('T', &Phone::new(r).any(r)),
        m('E', &make_email(r, rel, &p.family)),
        m('P', rel)
    )
}

/// A wearable's export, CSV or JSON: serial, upload IP, share link, a reading per row.
fn devexport(r: &mut Rng, c: &Ctx) -> String {
    let p = c.any(r);
    let start = visit(r);
    if r.chance(50) {
        let mut t = format!(
            "{{\n  \"export\": \"glucose-share v3\",\n  \"device\": {{\"model\": \"G7 CGM\", \"serial\": \"{}\"}},\n  \"patient\": {{\"name\": \"{}\", \"dob\": \"{}\", \"email\": \"{}\"}},\n  \"uploaded_from\": \"{}\",\n  \"share_url\": \"{}\",\n  \"readings\": [\n",
            m('V', &serial(r, "8G")),
            m('P', &p.full()),
            m('D', &p.dob.iso()),
            m('E', &p.email),
            m('I', &ip(r)),
            m(
                'U',
                &format!(
                    "https://share.glucoview.io/s/{}{}",
                    r.letters(4).to_lowercase(),
                    r.digits(6)
                )
            )
        );
        let n = r.range(3, 5);
        for i in 0..n {
            let d = Day {
                d: (start.d + i).min(28),
                ..start
            };
            t += &format!(
                "    {{\"t\": \"{}T{:02}:{:02}:00-05:00\", \"mg_dl\": {}}}{}\n",
                m('D', &d.iso()),
                r.range(0, 23),
                r.range(0, 59),
                r.range(60, 280),
                if i + 1 < n { "," } else { "" }
            );
        }
        t += "  ]\n}";
        t
    } else {
        let mut t = format!(
            "# BP monitor export (HEM-7361T)\n# User: {}; DOB {}; Device SN {}\n# Synced from {} on {}\ndate,time,systolic,diastolic,pulse,irregular\n",
            m('P', &p.full()),
            m('D', &p.dob.us()),
            m('V', &serial(r, "HB")),
            m('I', &ip(r)),
            m('D', &start.us())
        );
        for i in 0..r.range(3, 5) {
            let d = Day {
                d: (start.d + i).min(28),
                ..start
            };
            t += &format!(
                "{},{:02}:{:02},{},{},{},{}\n",
                m('D', &d.us()),
                r.range(6, 21),
                r.range(0, 59),
                r.range(110, 170),
                r.range(60, 100),
                r.range(55, 95),
                if r.chance(20) { "yes" } else { "no" }
            );
        }
        t
    }
}

// ---------------------------------------------------------------------------------------

type Family = fn(&mut Rng, &Ctx) -> String;

const WRITERS: [Family; 28] = [
    dialref, dentref, ptreply, ucxfer, hl7mdm, hl7orm, hl7dft, hl7rep, answsvc, triage, pharmcb,
    vmkin, dialchat, ptchat, teamsexp, denial, collect, portalbill, dentbill, hospice, labreq,
    imaging, guardian, polish, tagalog, hinglish, arabic, devexport,
];

/// `docs` documents, the families in turn, from `seed`.
pub fn generate(seed: u64, docs: usize) -> Set {
    let mut r = Rng(seed);
    let ctx = Ctx { pool: pool(&mut r) };
    let roster = ctx.pool.iter().step_by(3).map(Pat::full).collect();
    let mut keep: Vec<String> = vec![PRACTICE.to_string()];
    keep.extend(SITES.iter().map(|s| s.to_string()));
    keep.extend(PAYERS.iter().map(|s| s.to_string()));
    keep.extend(PHARMACIES.iter().map(|s| s.to_string()));
    keep.extend(STAFF.iter().map(|s| format!("{} {}", s.given, s.family)));
    keep.extend(
        [
            "Keystone Recovery Group",
            "Allegheny Clinical Labs",
            "Whitcomb & Lyle LLP",
            "Brightwood Personal Care",
            "Nightwatch Answering Service",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    let docs = (0..docs)
        .map(|i| {
            let k = i % FAMILIES.len();
            build(FAMILIES[k], &WRITERS[k](&mut r, &ctx))
        })
        .collect();
    Set { docs, roster, keep }
}

// ---------------------------------------------------------------------------------------
// Second layouts of some families.

/// The dialysis unit's transient request as a short e-mail between unit staff.
fn dialref_mail(r: &mut Rng, c: &Ctx) -> String {
    let p = c.any(r);
    let (rel, role) = relative(r);
    let from = visit(r);
    let to = Day {
        d: (from.d + r.range(2, 9)).min(28),
        ..from
    };
    let lab = visit(r);
    let sent = visit(r);
    let sex = if p.female { "F" } else { "M" };
    format!(
        "From: Tamsin Leclair <{}>\nTo: {}\nSent: {}\nSubject: transient tx request - {} {}. - {}-{}\n\nHi team, can you take {} ({sex}, {}, DOB {}) for {} treatments {} to {}? Visiting {} {role} {} for {}. Access L brachiocephalic AVF, Hep B immune ({}). {} orders and last 3 flowsheets attached.\nPrimary Medicare {}, secondary {}. Pt cell {}.\nThanks!\nTamsin\nMillrace Dialysis Center, fax {}",
        m('E', "tleclair@millracedialysis.org"),
        m('E', "transient@lakemontnephrology.com"),
        mail_date(r, &sent),
        m('P', &p.family.to_uppercase()),
        m(
            'P',
            &p.given[..p.given.chars().next().map_or(1, char::len_utf8)]
        ),
        m('D', &format!("{}/{}", from.m, from.d)),
        m('D', &format!("{}/{}", to.m, to.d)),
        m('P', &p.full()),
        spoken_age_digits(&p),
        m('D', &p.dob.short()),
        r.range(3, 6),
        m('D', &from.md()),
        m('D', &to.md()),
        if p.female { "her" } else { "his" },
        m('P', &rel),
        r.pick(&["a wedding", "the holidays", "two weeks", "a family funeral"]),
        m('D', &lab.us()),
        r.pick(&["Epo/iron", "Calcitriol", "Heparin"]),
        m('H', &p.member),
        r.pick(PAYERS),
        m('T', &p.phone.any(r)),
        m('F', &Phone::new(r).any(r))
    )
}

/// The dentist's referral as a letter, the patient's name wrapped across a line.
fn dentref_letter(r: &mut Rng, c: &Ctx) -> String {
    let p = c.any(r);
    let (rel, role) = relative(r);
    let (he, his) = if p.female {
        ("She", "her")
    } else {
        ("He", "his")
    };
    format!(
        "{}\n\nRidgeline Oral Surgery\nAttn: new patient coordinator\n\nDear Doctor,\n\nThank you for seeing {} {}\n{}, a {} patient of ours (DOB {}), for {}. Radiographs from {} are enclosed.\n{} takes {} and has {}; please premedicate per your protocol.\n{} can be reached at {} or {}; {} {}, {}, usually drives {}.\n\nSincerely,\n\nRoland Fairweather, DDS\nCedar Hollow Dental · tel {}",
        m('D', &visit(r).long()),
        title(&p),
        m('P', &p.given),
        m('P', &p.family),
        r.pick(&["long-standing", "new", "valued"]),
        m('D', &p.dob.us()),
        r.pick(&[
            "extraction of #1, #16, #17 and #32",
            "evaluation of a lesion on the left lateral tongue",
            "an implant consult at #30"
        ]),
        m('D', &visit(r).short()),
        he,
        r.pick(DRUGS),
        r.pick(EPONYMS),
        he,
        m('T', &p.phone.any(r)),
        m('E', &p.email),
        his,
        role,
        m('P', &rel),
        if p.female { "her" } else { "him" },
        m('T', &Phone::new(r).any(r))
    )
}

/// The front desk's group text: lower case, names that are words, a new address.
fn frontdesk_text(r: &mut Rng, c: &Ctx) -> String {
    let a = c.any(r);
    let b = c.any(r);
    let (rel, role) = relative(r);
    let d = visit(r);
    let (she, her) = if a.female {
        ("she", "her")
    } else {
        ("he", "his")
    };
    format!(
        "front desk (group) · {}\ncorinne: {} is here for {her} 10:00 but the auth ran out {}\ntamsin: is that {}? dob {}\ncorinne: yep. {her} {role} {} is with {}, says they moved, new addr {}, {} {}\ntamsin: ok updating. also {} cx'd thurs, wants the 4:15 on {} if it opens\ncorinne: {} can do, i'll text {} at {}\ntamsin: ty. {} still owes the copay from {} fyi",
        m('D', &d.short()),
        m('P', &a.called().to_lowercase()),
        m('D', &visit(r).md().to_lowercase()),
        lower_name(&a),
        m('D', &a.dob.short()),
        m('P', &rel.to_lowercase()),
        if a.female { "her" } else { "him" },
        m('R', &a.street_line().to_lowercase()),
        m('R', &a.town.to_lowercase()),
        m('Z', &a.zip),
        m('P', &b.given.to_lowercase()),
        m('D', &visit(r).md().to_lowercase()),
        she,
        m('P', &b.called().to_lowercase()),
        m('T', &b.phone.any(r)),
        m('P', &a.called().to_lowercase()),
        m('D', &visit(r).short())
    )
}

/// An explanation of benefits laid out as a table; the subscriber may be a relative.
fn eob_table(r: &mut Rng, c: &Ctx) -> String {
    let p = c.any(r);
    let (rel, _) = relative(r);
    let payer = r.pick(PAYERS);
    let subscriber_is_patient = r.chance(50);
    let mut t = format!(
        "EXPLANATION OF BENEFITS — THIS IS NOT A BILL\n{payer}                 Statement date: {}\nMember: {}   ID: {}   Group: {}\nPatient: {}   Claim # {}\nProvider: {}\n\nService date | Code  | Billed  | Allowed | Plan paid | You owe\n",
        m('D', &visit(r).us()),
        if subscriber_is_patient {
            m('P', &p.full().to_uppercase())
        } else {
            m(
                'P',
                &format!("{} {}", rel.to_uppercase(), p.family.to_uppercase()),
            )
        },
        m('H', &p.member),
        r.digits(7),
        if subscriber_is_patient {
            "self".to_string()
        } else {
            format!("{} (dependent)", m('P', &p.given))
        },
        m('A', &format!("{}{}", r.letters(2), r.digits(10))),
        r.pick(SITES)
    );
    let d = visit(r);
    for (i, code) in ["97110", "97140", "97530", "97161"]
        .iter()
        .take(r.range(2, 4) as usize)
        .enumerate()
    {
        let day = Day {
            d: (d.d + 2 * i as u32).min(28),
            ..d
        };
        let billed = r.range(80, 220);
        let allowed = billed * 2 / 3;
        t += &format!(
            "{}     | {code} | {billed}.00  | {allowed}.00   | 0.00      | {allowed}.00\n",
            m('D', &day.short())
        );
    }
    t += &format!(
        "\nAmounts applied to deductible. Questions? Call {} or visit www.{}.com/eob (general information).",
        m('T', &format!("1-866-{}-{}", r.range(200, 999), r.digits(4))),
        payer.split(' ').next().unwrap_or("plan").to_lowercase()
    );
    t
}

/// A payment reminder by text message with a tokenised link.
fn pay_text(r: &mut Rng, c: &Ctx) -> String {
    let p = c.any(r);
    let token = format!("{}{}", r.letters(3).to_lowercase(), r.digits(5));
    format!(
        "SMS to {} · {}\nCedarHollowPay: Hi {}, your balance of ${}.{:02} for {}'s visit on {} is past due. Pay securely: {} . Reply STOP to opt out, HELP for help. Questions {}.\n\nSMS from {} · {}\nis this for {} or {}?? we already paid at the desk on {}",
        m('T', &p.phone.any(r)),
        m('D', &visit(r).short()),
        m('P', p.called()),
        r.range(20, 900),
        r.range(0, 99),
        m(
            'P',
            &format!("{} {}", p.given.to_uppercase(), p.family.to_uppercase())
        ),
        m('D', &visit(r).us()),
        m('U', &format!("https://chp.pay/{token}")),
        m('T', &format!("412-{}-{}", r.range(200, 999), r.digits(4))),
        m('T', &p.phone.digits()),
        m('D', &visit(r).short()),
        m('P', &p.called().to_lowercase()),
        m('P', &relative(r).0.to_lowercase()),
        m('D', &format!("{}/{}", visit(r).m, r.range(1, 28)))
    )
}

/// A pharmacy technician's refill call-back: "last name …, first name …", a numeric date of
/// birth, who picks it up.
fn pharmcb_refill(r: &mut Rng, c: &Ctx) -> String {
    let p = c.any(r);
    let (rel, role) = relative(r);
    let store = r.pick(PHARMACIES);
    let line = Phone::new(r);
    format!(
        "new voicemail · {} 9:{:02} am · from {}\n\"yes good morning this is the pharmacy tech at {} calling dr {}'s office, i have a refill request for last name {}, first name {}, date of birth {}, for the {}, there's no refills left on it, {} {role} {} usually picks it up and {} said {} is completely out, so if you could send that over today, our direct line is {}, that's {}, thank you\"",
        m('D', &visit(r).short()),
        r.range(0, 59),
        m('T', &line.any(r)),
        store.to_lowercase(),
        doctor(r).family.to_lowercase(),
        m('P', &p.family.to_lowercase()),
        m('P', &p.given.to_lowercase()),
        m('D', &p.dob.spoken_numeric(r)),
        r.pick(DRUGS),
        if p.female { "her" } else { "his" },
        m('P', &rel.to_lowercase()),
        if rel.len() % 2 == 0 { "she" } else { "he" },
        if p.female { "she" } else { "he" },
        m('T', &line.spoken(r)),
        m('T', &line.any(r))
    )
}

/// The dialysis charge nurses' WhatsApp thread: dated lines, station numbers, transport.
fn dialchat_whatsapp(r: &mut Rng, c: &Ctx) -> String {
    let d = visit(r);
    let mut t = String::new();
    let names = ["Tamsin Leclair", "Jorge Albuquerque", "Corinne Blakely"];
    for i in 0..r.range(3, 5) {
        let p = c.any(r);
        let who = names[i as usize % 3];
        let line = match r.range(0, 3) {
            0 => format!(
                "{} to station {} today, the pump on the usual one is being replaced",
                m('P', &p.called().to_lowercase()),
                m('O', &r.range(1, 24).to_string())
            ),
            1 => format!(
                "{}'s family drops off in a white ford transit, plate {}, let them use the side door",
                m('P', &p.full()),
                m('W', &plate(r))
            ),
            2 => format!(
                "{} {} wants to swap to TTS starting {}, ok with {}?",
                title(&p).to_lowercase().trim_end_matches('.'),
                m('P', &p.family.to_lowercase()),
                m('D', &visit(r).md()),
                doctor(r).family
            ),
            _ => format!(
                "heads up {} ({}) back from hospital, rehab room {} until discharge",
                m('P', &p.full().to_lowercase()),
                spoken_age_digits(&p),
                m('O', &format!("{}{}", r.range(1, 4), r.range(10, 40)))
            ),
        };
        t += &format!(
            "[{}, {:02}:{:02}:{:02}] {who}: {line}\n",
            m('D', &d.short()),
            r.range(5, 7),
            r.range(0, 59),
            r.range(0, 59)
        );
    }
    t
}
