//! The thirteenth blind set's generator: 28 families of clinic mail, seeded and deterministic
//! (a hand-written splitmix64), labelled as they are written. The labelling conventions are in
//! the crate root, tests/redaction_blind13.rs.

use opsdesk::governance::redact::Kind;

use crate::redaction_harness::{Doc, Label, Set};

pub const FAMILIES: [&str; 28] = [
    // Everyday genres.
    "referral",
    "consult",
    "hl7adt",
    "hl7oru",
    "hl7siu",
    "hl7mdmdft",
    "voicemail",
    "schedchat",
    "billing",
    "collect",
    "attach",
    "subjects",
    "forward",
    "portal",
    "refill",
    "priorauth",
    "discharge",
    "soap",
    "intake",
    // Families no earlier set wrote.
    "dental",
    "optometry",
    "physio",
    "ambulance",
    "pharmsms",
    "interpret",
    "german",
    "korean",
    "yoruba",
];

// ---------------------------------------------------------------------------------------------
// Randomness

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
        lo + (self.next() % u64::from(hi - lo + 1)) as u32
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
    fn chance(&mut self, pct: u64) -> bool {
        self.next() % 100 < pct
    }
    fn digits(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from(b'0' + (self.next() % 10) as u8))
            .collect()
    }
    /// `n` digits, the first not zero.
    fn num(&mut self, n: usize) -> String {
        let first = char::from(b'1' + (self.next() % 9) as u8);
        let mut s = first.to_string();
        s.push_str(&self.digits(n - 1));
        s
    }
    fn letters(&mut self, n: usize) -> String {
        const L: &[u8] = b"ABCDEFGHJKLMNPRSTUVWXYZ";
        (0..n).map(|_| char::from(L[self.below(L.len())])).collect()
    }
}

// ---------------------------------------------------------------------------------------------
// The document builder: plain text and labelled pieces, appended in order.

#[derive(Default)]
struct B {
    text: String,
    labels: Vec<Label>,
}

impl B {
    fn t(&mut self, s: &str) -> &mut Self {
        self.text.push_str(s);
        self
    }
    fn l(&mut self, kind: Kind, s: &str) -> &mut Self {
        let start = self.text.len();
        self.text.push_str(s);
        if !s.trim().is_empty() {
            self.labels.push(Label {
                start,
                end: self.text.len(),
                kind,
            });
        }
        self
    }
    fn name(&mut self, p: &P, f: Nf) -> &mut Self {
        let given_mid = if p.mid.is_empty() {
            p.given.to_string()
        } else {
            format!("{} {}", p.given, p.mid)
        };
        match f {
            Nf::Full => self.l(Kind::Person, &format!("{} {}", p.given, p.family)),
            Nf::FullMid => {
                if p.mid.is_empty() {
                    self.l(Kind::Person, &format!("{} {}", p.given, p.family))
                } else {
                    self.l(
                        Kind::Person,
                        &format!("{} {}. {}", p.given, p.mid, p.family),
                    )
                }
            }
            Nf::LastFirst => {
                self.l(Kind::Person, p.family)
                    .t(", ")
                    .l(Kind::Person, &given_mid);
                if !p.mid.is_empty() {
                    self.t(".");
                }
                self
            }
            Nf::CapsLastFirst => self
                .l(Kind::Person, &p.family.to_uppercase())
                .t(", ")
                .l(Kind::Person, &p.given.to_uppercase()),
            Nf::Caps => self.l(
                Kind::Person,
                &format!("{} {}", p.given, p.family).to_uppercase(),
            ),
            Nf::Lower => self.l(
                Kind::Person,
                &format!("{} {}", p.given, p.family).to_lowercase(),
            ),
            Nf::Given => self.l(Kind::Person, p.given),
            Nf::Nick => self.l(Kind::Person, p.call()),
            Nf::InitLast => {
                let i = p.given.chars().next().unwrap_or('X');
                self.l(Kind::Person, &format!("{i}. {}", p.family))
            }
            Nf::Title => self.t(p.title()).t(" ").l(Kind::Person, p.family),
            Nf::Family => self.l(Kind::Person, p.family),
            Nf::Hl7 => self
                .l(Kind::Person, &p.family.to_uppercase())
                .t("^")
                .l(Kind::Person, &p.given.to_uppercase())
                .t("^")
                .l(Kind::Person, p.mid),
        }
    }
    /// A name in one of the forms prose uses.
    fn prose_name(&mut self, r: &mut Rng, p: &P) -> &mut Self {
        let f = r.pick(&[
            Nf::Full,
            Nf::FullMid,
            Nf::LastFirst,
            Nf::Caps,
            Nf::InitLast,
            Nf::Title,
            Nf::Full,
        ]);
        self.name(p, f)
    }
    fn date(&mut self, d: D, form: usize) -> &mut Self {
        self.l(Kind::Date, &d.show(form))
    }
    /// An age: over 89 labelled, otherwise plain.
    fn age(&mut self, n: u32, s: &str) -> &mut Self {
        if n > 89 {
            self.l(Kind::Age, s)
        } else {
            self.t(s)
        }
    }
    fn done(self, family: &'static str) -> Doc {
        Doc {
            family,
            text: self.text,
            labels: self.labels,
        }
    }
}

#[derive(Clone, Copy)]
enum Nf {
    Full,
    FullMid,
    LastFirst,
    CapsLastFirst,
    Caps,
    Lower,
    Given,
    Nick,
    InitLast,
    Title,
    Family,
    Hl7,
}

// ---------------------------------------------------------------------------------------------
// People

#[derive(Clone, Copy)]
struct P {
    given: &'static str,
    mid: &'static str,
    family: &'static str,
    nick: &'static str,
    female: bool,
}

impl P {
    fn call(&self) -> &'static str {
        if self.nick.is_empty() {
            self.given
        } else {
            self.nick
        }
    }
    fn title(&self) -> &'static str {
        if self.female { "Ms." } else { "Mr." }
    }
    fn he(&self) -> &'static str {
        if self.female { "she" } else { "he" }
    }
    /// The word for this person as someone's child.
    fn child(&self) -> &'static str {
        if self.female { "daughter" } else { "son" }
    }
    fn his(&self) -> &'static str {
        if self.female { "her" } else { "his" }
    }
    /// The name with spaces, apostrophes and hyphens taken out, as a file name glues it.
    fn glued_family(&self) -> String {
        self.family
            .split([' ', '-', '\''])
            .map(cap)
            .collect::<Vec<_>>()
            .join("")
    }
    fn glued_given(&self) -> String {
        self.given
            .split([' ', '-', '\''])
            .map(cap)
            .collect::<Vec<_>>()
            .join("")
    }
}

fn cap(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Given, middle initial, family, nickname, female, and a tag: 'k' Korean, 'y' Yoruba, 'g'
/// German-speaking, '-' other.
type Row = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    bool,
    char,
);

const POOL: &[Row] = &[
    ("Grace", "L", "Whitcombe", "Gracie", true, '-'),
    ("William", "T", "Price", "Bill", false, '-'),
    ("Hope", "", "Brown", "", true, '-'),
    ("Mark", "A", "Lane", "", false, '-'),
    ("Rose", "M", "Young", "Rosie", true, '-'),
    ("Margaret", "E", "Holloway", "Peggy", true, '-'),
    ("Robert", "J", "Ainsworth", "Bob", false, '-'),
    ("Dorothy", "", "Pennington", "Dot", true, '-'),
    ("Eugene", "R", "Fairbanks", "Gene", false, '-'),
    ("Siobhán", "M", "O'Neill", "", true, '-'),
    ("Declan", "", "Fitzgerald", "Dec", false, '-'),
    ("Aoife", "", "Ní Bhriain", "", true, '-'),
    ("Giuseppe", "A", "D'Angelo", "Joe", false, '-'),
    ("Concetta", "", "Lo Bianco", "Connie", true, '-'),
    ("María José", "", "García de la Fuente", "", true, '-'),
    ("José Luis", "", "Hernández Ruiz", "", false, '-'),
    ("Ximena", "", "de la Cruz", "", true, '-'),
    ("Guadalupe", "", "Villaseñor", "Lupe", true, '-'),
    ("João", "P", "da Silva Moreira", "", false, '-'),
    ("Pieter", "J", "van der Merwe", "Piet", false, 'g'),
    ("Femke", "", "de Vries", "", true, 'g'),
    ("Jürgen", "", "Schäfer", "", false, 'g'),
    ("Anneliese", "K", "Großmann", "Liesel", true, 'g'),
    ("Wolfgang", "", "von Bülow", "", false, 'g'),
    ("Hélène", "", "Lefèvre", "", true, '-'),
    ("Jean-Baptiste", "", "Duchêne", "", false, '-'),
    ("Thérèse", "", "Saint-Amand", "", true, '-'),
    ("Mohammed", "", "al-Rashidi", "", false, '-'),
    ("Fatima", "Z", "El-Amin", "", true, '-'),
    ("Youssef", "", "Abou Khalil", "", false, '-'),
    ("Layla", "", "Haddad", "", true, '-'),
    ("Shirin", "", "Tehrani-Moghaddam", "", true, '-'),
    ("Dariush", "", "Farahani", "", false, '-'),
    ("Emine", "", "Yıldırım", "", true, 'g'),
    ("Mehmet", "", "Öztürk", "", false, 'g'),
    ("Adébáyọ̀", "", "Ọlátúnjí", "Bayo", false, 'y'),
    ("Olúwaseun", "", "Adéyẹmí", "Seun", false, 'y'),
    ("Folasade", "", "Ogunleye", "Sade", true, 'y'),
    ("Abíọ́dún", "", "Akínwándé", "Abby", true, 'y'),
    ("Chinedu", "", "Okonkwo", "Nedu", false, '-'),
    ("Ngozi", "A", "Eze", "", true, '-'),
    ("Aminu", "", "Bello", "", false, '-'),
    ("Kwame", "", "Asante-Mensah", "", false, '-'),
    ("Akosua", "", "Boateng", "", true, '-'),
    ("Tigist", "", "Gebremedhin", "", true, '-'),
    ("Dawit", "", "Tesfaye", "", false, '-'),
    ("Hodan", "", "Warsame", "", true, '-'),
    ("Abdirahman", "", "Farah", "", false, '-'),
    ("Venkata", "S", "Subrahmanyam", "Venky", false, '-'),
    ("Lakshmi", "", "Narayanan", "", true, '-'),
    ("Gurpreet", "", "Kaur Sandhu", "", true, '-'),
    ("Arjun", "", "Mehta", "", false, '-'),
    ("Imran", "", "Qureshi", "", false, '-'),
    ("Nusrat", "", "Chaudhry", "", true, '-'),
    ("Rahima", "", "Begum", "", true, '-'),
    ("Tanvir", "", "Hossain", "", false, '-'),
    ("Wei", "", "Zhang", "", false, '-'),
    ("Xiulan", "", "Chen", "", true, '-'),
    ("Mei-Ling", "", "Chow", "", true, '-'),
    ("Ji-hoon", "", "Park", "", false, 'k'),
    ("Seo-yeon", "", "Kim", "", true, 'k'),
    ("Min-jun", "", "Choi", "", false, 'k'),
    ("Eun-ji", "", "Jeong", "", true, 'k'),
    ("Dong-hyun", "", "Yoon", "", false, 'k'),
    ("Haruto", "", "Takahashi", "", false, '-'),
    ("Yuki", "", "Nakamura", "", true, '-'),
    ("Lan", "T", "Nguyễn", "", true, '-'),
    ("Minh", "", "Trần", "", false, '-'),
    ("Maria Luisa", "", "Dela Cruz", "Malou", true, '-'),
    ("Rodrigo", "", "Bautista", "Rod", false, '-'),
    ("Svetlana", "", "Kuznetsova", "Sveta", true, '-'),
    ("Oleksandr", "", "Shevchenko", "Sasha", false, '-'),
    ("Zbigniew", "", "Wróblewski", "Zbyszek", false, 'g'),
    ("Małgorzata", "", "Kamińska", "Gosia", true, '-'),
    ("Konstantinos", "", "Papadopoulos", "Gus", false, '-'),
    ("Eleni", "", "Georgiou", "", true, '-'),
    ("Zsófia", "", "Horváth", "", true, 'g'),
    ("Bjørn", "", "Haugen", "", false, '-'),
    ("Åsa", "", "Lindström", "", true, '-'),
    ("Keala", "", "Kahananui", "", true, '-'),
    ("Sione", "", "Tuilagi", "", false, '-'),
    ("Miriam", "", "Rosenbaum-Katz", "Miri", true, '-'),
    ("Shlomo", "", "Abramowitz", "", false, '-'),
    ("Anahit", "", "Petrosyan", "", true, '-'),
    ("Winona", "", "Running Crane", "", true, '-'),
    ("Hamish", "", "McAllister", "", false, '-'),
    ("Isla", "", "MacDonald", "", true, '-'),
    ("Rhys", "", "ap Gwilym", "", false, '-'),
    ("DeShawn", "", "Washington", "", false, '-'),
    ("Latoya", "", "Jefferson", "Toya", true, '-'),
    ("Faith", "", "Baker", "", true, '-'),
    ("Victor", "", "Hunter", "Vic", false, '-'),
    ("Jack", "", "Little", "", false, '-'),
    ("Crystal", "", "Cook", "", true, '-'),
    ("Penny", "", "Rich", "", true, '-'),
    ("Joy", "", "Miller", "", true, '-'),
];

fn person(row: &Row) -> P {
    P {
        given: row.0,
        mid: row.1,
        family: row.2,
        nick: row.3,
        female: row.4,
    }
}

fn pat(r: &mut Rng) -> P {
    person(&POOL[r.below(POOL.len())])
}

fn pat_tagged(r: &mut Rng, tag: char) -> P {
    let of: Vec<&Row> = POOL.iter().filter(|p| p.5 == tag).collect();
    person(of[r.below(of.len())])
}

/// Another patient than `p`, as a relative or a second patient.
fn other(r: &mut Rng, p: &P) -> P {
    loop {
        let q = pat(r);
        if q.family != p.family {
            return q;
        }
    }
}

/// The practice, its sites, staff and payers: the profile's keep list, never labelled.
const KEEP: &[&str] = &[
    "Bramblewood Medical Group",
    "Bramblewood Family Practice",
    "Bramblewood",
    "Quarry Hill Clinic",
    "Quarry Hill",
    "Tidewater Annex",
    "Ridgeline Cardiology",
    "Larchmont Orthopaedics",
    "Bramblewood Dental",
    "Clearbrook Eye Care",
    "Fennimore Pharmacy",
    "Corvin Reference Laboratory",
    "Keystone Mutual",
    "Evergreen Health Plan",
    "Harborline Medicaid",
    "Medicare",
    "Northgate Recovery Services",
    "Medic 14",
    "Ingrid Solvang",
    "Solvang",
    "Ingrid",
    "Rafael Quintanilla",
    "Quintanilla",
    "Rafael",
    "Meenakshi Raghavan",
    "Raghavan",
    "Meenakshi",
    "Callum Birtwistle",
    "Birtwistle",
    "Callum",
    "Henrike Oberländer",
    "Oberländer",
    "Henrike",
    "Femi Adewusi",
    "Adewusi",
    "Femi",
    "Sung-min Yoo",
    "Yoo",
    "Sung-min",
    "Priya Venkataraman",
    "Venkataraman",
    "Priya",
    "Laszlo Farkas",
    "Farkas",
    "Laszlo",
    "Maren Lindqvist",
    "Lindqvist",
    "Maren",
    "Rosalind Achterberg",
    "Achterberg",
    "Rosalind",
    "Roz",
    "Deb Kowalczyk",
    "Kowalczyk",
    "Deb",
    "Jamal Whitford",
    "Whitford",
    "Jamal",
    "Kiri Tane",
    "Tane",
    "Kiri",
    "Bernadette Ocampo",
    "Ocampo",
    "Bernadette",
    "Bernie",
    "Gwen Pettigrew",
    "Pettigrew",
    "Gwen",
    "Luz Marina Ardila",
    "Ardila",
    "Luz Marina",
    "Nikhil Bhattacharjee",
    "Bhattacharjee",
    "Nikhil",
    "Darnell Fitch",
    "Fitch",
    "Darnell",
];

// ---------------------------------------------------------------------------------------------
// Dates and numbers

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

/// 0 ..= 199 in words, the tens joined by `sep`.
fn words(n: u32, sep: &str) -> String {
    if n >= 100 {
        let rest = n - 100;
        return if rest == 0 {
            "one hundred".to_string()
        } else {
            format!("one hundred {}", words(rest, sep))
        };
    }
    if n < 20 {
        return ONES[n as usize].to_string();
    }
    let t = TENS[(n / 10) as usize];
    if n.is_multiple_of(10) {
        t.to_string()
    } else {
        format!("{t}{sep}{}", ONES[(n % 10) as usize])
    }
}

fn ordinal_word(n: u32) -> String {
    if n < 20 {
        return ORD[n as usize].to_string();
    }
    let t = TENS[(n / 10) as usize];
    if n.is_multiple_of(10) {
        format!("{}ieth", &t[..t.len() - 1])
    } else {
        format!("{t} {}", ORD[(n % 10) as usize])
    }
}

fn suffix(n: u32) -> &'static str {
    match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    }
}

fn spoken_year(y: u32, full: bool) -> String {
    if y < 2000 {
        let yy = y % 100;
        let tail = if yy < 10 {
            format!("oh {}", ONES[yy as usize])
        } else {
            words(yy, " ")
        };
        if full {
            format!("nineteen {tail}")
        } else {
            tail
        }
    } else if y < 2010 {
        format!("two thousand {}", ONES[(y - 2000) as usize])
    } else {
        format!("twenty {}", words(y - 2000, " "))
    }
}

fn spoken_digits(r: &mut Rng, s: &str) -> String {
    let oh = r.chance(60);
    s.chars()
        .filter(|c| c.is_ascii_digit())
        .map(|c| {
            let d = c as u32 - '0' as u32;
            if d == 0 && oh {
                "oh".to_string()
            } else {
                ONES[d as usize].to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[derive(Clone, Copy)]
struct D {
    y: u32,
    m: u32,
    d: u32,
}

impl D {
    fn month(&self) -> &'static str {
        MONTHS[(self.m - 1) as usize]
    }
    fn mon(&self) -> &'static str {
        &MONTHS[(self.m - 1) as usize][..3]
    }
    /// Written forms: 0-11 with the year, 12-13 without, 14 HL7, 15 glued MMDDYYYY,
    /// 16-18 spoken.
    fn show(&self, form: usize) -> String {
        let (y, m, d) = (self.y, self.m, self.d);
        match form {
            0 => format!("{m:02}/{d:02}/{y}"),
            1 => format!("{m}/{d}/{:02}", y % 100),
            2 => format!("{y}-{m:02}-{d:02}"),
            3 => format!("{} {d}, {y}", self.month()),
            4 => format!("{d} {} {y}", self.month()),
            5 => format!("{} {d} {y}", self.mon()),
            6 => format!("{d:02}-{}-{y}", self.mon()),
            7 => format!("{d:02}.{m:02}.{y}"),
            8 => format!("{m}-{d}-{y}"),
            9 => format!("{}. {d}{}, {y}", self.mon(), suffix(d)),
            10 => format!("{d}{} {} {y}", suffix(d), self.month()),
            11 => format!("{}/{}/{y}", m, d),
            12 => format!("{} {d}", self.month()),
            13 => format!("{m}/{d}"),
            14 => format!("{y}{m:02}{d:02}"),
            15 => format!("{m:02}{d:02}{y}"),
            16 => format!(
                "{} {} {}",
                self.month().to_lowercase(),
                ordinal_word(d),
                spoken_year(y, false)
            ),
            17 => format!(
                "the {} of {} {}",
                ordinal_word(d),
                self.month().to_lowercase(),
                spoken_year(y, true)
            ),
            _ => format!(
                "{} {} {}",
                ONES[m as usize],
                words(d, " "),
                spoken_year(y, false)
            ),
        }
    }
}

/// A written date form with the year (0 ..= 11).
fn wform(r: &mut Rng) -> usize {
    r.below(12)
}

fn birth(r: &mut Rng) -> D {
    D {
        y: r.range(1931, 2012),
        m: r.range(1, 12),
        d: r.range(1, 28),
    }
}

fn old_birth(r: &mut Rng) -> D {
    D {
        y: r.range(1921, 1935),
        m: r.range(1, 12),
        d: r.range(1, 28),
    }
}

fn recent(r: &mut Rng) -> D {
    let y = r.range(2025, 2026);
    D {
        y,
        m: if y == 2026 {
            r.range(1, 12)
        } else {
            r.range(6, 12)
        },
        d: r.range(1, 28),
    }
}

fn hl7_ts(r: &mut Rng, d: D) -> String {
    format!("{}{:02}{:02}", d.show(14), r.range(6, 20), r.range(0, 59))
}

fn phone_parts(r: &mut Rng) -> (String, String, String) {
    let area = r.pick(&["412", "724", "878", "570", "814", "267", "484", "717"]);
    (area.to_string(), r.range(201, 989).to_string(), r.digits(4))
}

/// A ten-digit number in one of the written forms.
fn phone(r: &mut Rng) -> String {
    let (a, e, l) = phone_parts(r);
    match r.below(7) {
        0 => format!("({a}) {e}-{l}"),
        1 => format!("{a}-{e}-{l}"),
        2 => format!("{a}.{e}.{l}"),
        3 => format!("+1 {a} {e} {l}"),
        4 => format!("1-{a}-{e}-{l}"),
        5 => format!("({a}){e}-{l}"),
        _ => format!("{a} {e} {l}"),
    }
}

fn mrn(r: &mut Rng) -> String {
    match r.below(4) {
        0 => format!("00{}", r.num(6)),
        1 => r.num(7),
        2 => format!("BMG{}", r.num(6)),
        _ => format!("M{}", r.num(7)),
    }
}

fn account(r: &mut Rng) -> String {
    match r.below(3) {
        0 => format!("{}-{}", r.num(4), r.digits(4)),
        1 => format!("A{}", r.num(7)),
        _ => r.num(9),
    }
}

fn plan_id(r: &mut Rng) -> String {
    match r.below(4) {
        0 => format!("KMH{}", r.num(9)),
        1 => format!("EVG-{}-{}", r.num(4), r.digits(4)),
        2 => format!(
            "{}{}{}{}-{}{}{}-{}{}{}",
            r.range(1, 9),
            r.letters(1),
            r.letters(1),
            r.range(0, 9),
            r.letters(1),
            r.letters(1),
            r.range(0, 9),
            r.letters(2),
            r.range(0, 9),
            r.range(0, 9)
        ),
        _ => format!("HMD{}", r.num(8)),
    }
}

fn ssn(r: &mut Rng) -> String {
    let a = r.range(101, 665);
    let g = r.range(10, 99);
    let s = r.range(1000, 9999);
    if r.chance(80) {
        format!("{a}-{g}-{s}")
    } else {
        format!("{a} {g} {s}")
    }
}

fn licence(r: &mut Rng) -> String {
    match r.below(3) {
        0 => format!("{} {} {}", r.num(2), r.digits(3), r.digits(3)),
        1 => format!(
            "{}{}-{}-{}",
            r.letters(1),
            r.num(3),
            r.digits(4),
            r.digits(4)
        ),
        _ => format!("{}{}", r.letters(1), r.num(7)),
    }
}

fn serial(r: &mut Rng) -> String {
    match r.below(3) {
        0 => format!("{}{}{}", r.letters(3), r.num(6), r.letters(1)),
        1 => format!("{}-{}-{}", r.num(4), r.letters(2), r.digits(2)),
        _ => format!("SN{}", r.num(9)),
    }
}

fn plate(r: &mut Rng) -> String {
    match r.below(3) {
        0 => format!("{}-{}", r.letters(3), r.num(4)),
        1 => format!("{}{}{}", r.range(1, 9), r.letters(3), r.digits(3)),
        _ => format!("{} {}", r.letters(3), r.num(4)),
    }
}

fn vin(r: &mut Rng) -> String {
    format!(
        "{}{}{}{}",
        r.range(1, 5),
        r.letters(4),
        r.num(5),
        r.letters(1)
    ) + &r.digits(6)
}

fn ip(r: &mut Rng) -> String {
    format!(
        "{}.{}.{}.{}",
        r.pick(&[73, 98, 24, 71, 108, 174, 67]),
        r.range(1, 254),
        r.range(0, 254),
        r.range(1, 254)
    )
}

fn card(r: &mut Rng) -> String {
    let mut d: Vec<u32> = vec![r.pick(&[4, 5])];
    while d.len() < 15 {
        d.push(r.range(0, 9));
    }
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
    let sep = r.pick(&[" ", "-", ""]);
    format!(
        "{}{sep}{}{sep}{}{sep}{}",
        &s[0..4],
        &s[4..8],
        &s[8..12],
        &s[12..16]
    )
}

fn ascii_fold(s: &str) -> String {
    s.chars()
        .filter_map(|c| match c {
            'á' | 'à' | 'â' | 'ä' | 'å' | 'Á' | 'Å' => Some('a'),
            'é' | 'è' | 'ê' | 'ẹ' | 'É' => Some('e'),
            'í' | 'ı' | 'Í' => Some('i'),
            'ó' | 'ò' | 'ö' | 'ọ' | 'ø' | 'Ó' | 'Ọ' | 'Ö' => Some('o'),
            'ú' | 'ü' | 'Ú' => Some('u'),
            'ñ' => Some('n'),
            'ł' | 'Ł' => Some('l'),
            'ß' => Some('s'),
            'ễ' => Some('e'),
            'ầ' | 'ã' => Some('a'),
            'ń' => Some('n'),
            '\u{300}'..='\u{36f}' => None,
            c if c.is_ascii_alphanumeric() => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

fn email(r: &mut Rng, p: &P) -> String {
    let g = ascii_fold(p.given);
    let f = ascii_fold(p.family);
    let dom = r.pick(&[
        "gmail.com",
        "yahoo.com",
        "outlook.com",
        "comcast.net",
        "icloud.com",
    ]);
    match r.below(4) {
        0 => format!("{g}.{f}@{dom}"),
        1 => format!("{}{f}{}@{dom}", &g[..1], r.range(10, 99)),
        2 => format!("{f}_{g}@{dom}"),
        _ => format!("{g}{}@{dom}", r.range(1950, 2005)),
    }
}

const STREETS: &[&str] = &[
    "Larkspur",
    "Old Mill",
    "Butternut",
    "Ridge",
    "Chestnut Hollow",
    "Whitetail",
    "Orchard View",
    "Kessler",
    "Abernathy",
    "Sycamore",
    "Foundry",
    "Pleasant Valley",
    "Cobblestone",
    "Hawthorne",
    "Juniper",
    "Tannery",
];
const SUFFIXES: &[&str] = &[
    "Street", "St", "Road", "Rd", "Lane", "Ln", "Avenue", "Ave", "Court", "Ct", "Drive", "Dr",
    "Way", "Terrace", "Blvd",
];
const CITIES: &[&str] = &[
    "Millvale",
    "Oakmont",
    "Carnegie",
    "Sewickley",
    "Etna",
    "Bethel Park",
    "Wilkinsburg",
    "Canonsburg",
    "Monroeville",
    "Dunmore",
    "Coraopolis",
    "Turtle Creek",
];

fn street(r: &mut Rng) -> String {
    let mut s = format!(
        "{} {} {}",
        r.range(2, 9876),
        r.pick(STREETS),
        r.pick(SUFFIXES)
    );
    if r.chance(25) {
        s.push_str(&format!(", Apt {}{}", r.range(1, 40), r.letters(1)));
    }
    s
}

fn zip(r: &mut Rng) -> String {
    let z = format!(
        "{}{}",
        r.pick(&["150", "151", "152", "153", "160", "185"]),
        r.digits(2)
    );
    if r.chance(20) {
        format!("{z}-{}", r.digits(4))
    } else {
        z
    }
}

/// `street, City, PA zip` (street and city labelled Address, the state plain).
fn address(b: &mut B, r: &mut Rng, sep: &str) {
    let s = street(r);
    let c = r.pick(CITIES);
    let z = zip(r);
    b.l(Kind::Address, &s)
        .t(sep)
        .l(Kind::Address, c)
        .t(", PA ")
        .l(Kind::Zip, &z);
}

fn room(r: &mut Rng) -> String {
    match r.below(3) {
        0 => r.range(101, 689).to_string(),
        1 => format!("{}{}", r.range(2, 6), r.pick(&["A", "B", "C"])),
        _ => format!("{}-{}", r.range(201, 540), r.pick(&["A", "B"])),
    }
}

const DRUGS: &[&str] = &[
    "metoprolol succinate 25 mg",
    "atorvastatin 40 mg",
    "apixaban 5 mg",
    "levothyroxine 88 mcg",
    "metformin 1000 mg",
    "lisinopril 10 mg",
    "sertraline 50 mg",
    "tamsulosin 0.4 mg",
    "gabapentin 300 mg",
    "furosemide 40 mg",
    "Eliquis 2.5 mg",
    "Ozempic 0.5 mg",
    "amlodipine 5 mg",
    "donepezil 10 mg",
];

const WHY: &[&str] = &[
    "new-onset atrial fibrillation",
    "worsening exertional dyspnoea",
    "Parkinson's disease with more frequent falls",
    "a right knee effusion after a fall",
    "poorly controlled type 2 diabetes (HbA1c 9.4%)",
    "Hashimoto's thyroiditis with a TSH of 11.2",
    "Crohn's disease flare",
    "Bell's palsy, left side, onset 3 days ago",
    "recurrent syncope",
    "a suspicious pigmented lesion on the back",
];

fn weekday(r: &mut Rng) -> &'static str {
    r.pick(&[
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "tomorrow",
        "next week",
    ])
}

fn time(r: &mut Rng) -> String {
    format!(
        "{}:{:02} {}",
        r.range(1, 12),
        r.pick(&[0, 15, 30, 45]),
        r.pick(&["am", "pm", "AM", "PM"])
    )
}

// ---------------------------------------------------------------------------------------------
// Families: everyday genres

fn referral(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    let (to, to_first, site) = r.pick(&[
        ("Dr. Rafael Quintanilla", "Rafael", "Ridgeline Cardiology"),
        ("Dr. Meenakshi Raghavan", "Meenakshi", "Quarry Hill Clinic"),
        ("Dr. Callum Birtwistle", "Callum", "Larchmont Orthopaedics"),
    ]);
    b.t("Bramblewood Family Practice\n").t("Date: ");
    b.date(recent(r), wform(r))
        .t("\n\nTo: ")
        .t(to)
        .t(", ")
        .t(site)
        .t("\nRe: ");
    b.name(
        &p,
        r.pick(&[Nf::Full, Nf::LastFirst, Nf::Caps, Nf::FullMid]),
    );
    b.t("   DOB: ").date(birth(r), wform(r)).t("   MRN: ");
    let m = mrn(r);
    b.l(Kind::Mrn, &m).t("\nHome: ");
    address(&mut b, r, ", ");
    b.t("\nTel: ").l(Kind::Phone, &phone(r)).t("\n\n");
    if r.chance(50) {
        b.t("Dear ").t(to_first).t(",\n\n");
    } else {
        b.t("Dear ").t(to).t(",\n\n");
    }
    let age = r.range(38, 103);
    b.t("Thank you for seeing ")
        .name(&p, Nf::Title)
        .t(", a ")
        .age(age, &age.to_string())
        .t("-year-old with ")
        .t(r.pick(WHY))
        .t(". ");
    b.name(&p, Nf::Given)
        .t(" has taken ")
        .t(r.pick(DRUGS))
        .t(" daily since 2019; ")
        .t(p.his())
        .t(" last ECG on ");
    b.date(recent(r), wform(r)).t(" showed a rate of 112. ");
    if r.chance(60) {
        let q = other(r, &p);
        b.t(cap(p.his()).as_str())
            .t(" ")
            .t(q.child())
            .t(" ")
            .name(&q, r.pick(&[Nf::Full, Nf::Given]))
            .t(" usually comes along and can be reached on ")
            .l(Kind::Phone, &phone(r))
            .t(". ");
    }
    b.t("I would be grateful for your opinion on anticoagulation and whether a Holter is worthwhile.\n\n");
    b.t(r.pick(&["Kind regards,", "With thanks,", "Best wishes,"]))
        .t("\n\nIngrid Solvang, MD\nBramblewood Family Practice | t ")
        .l(Kind::Phone, &phone(r))
        .t(" | f ")
        .l(Kind::Fax, &phone(r))
        .t("\n");
    b
}

fn consult(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    let (from, sig) = r.pick(&[
        ("Ridgeline Cardiology", "Rafael Quintanilla, MD, FACC"),
        ("Larchmont Orthopaedics", "Callum Birtwistle FRCS (Orth)"),
        ("Quarry Hill Clinic — Endocrinology", "M. Raghavan, MD"),
    ]);
    b.t(from)
        .t("\n\n")
        .t(r.pick(&["RE: your patient ", "Re: ", "Consultation: "]));
    b.name(&p, r.pick(&[Nf::CapsLastFirst, Nf::LastFirst, Nf::Caps]));
    b.t(" (DOB ").date(birth(r), wform(r)).t(", our ref ");
    b.l(Kind::Mrn, &mrn(r))
        .t(")\n\nDear Dr. Solvang,\n\nI saw ");
    b.prose_name(r, &p).t(" in clinic on ");
    b.date(recent(r), r.pick(&[3, 4, 9, 10, 0])).t(". ");
    let age = r.range(45, 101);
    b.t(cap(p.he()).as_str()).t(" is ");
    if r.chance(50) {
        b.age(age, &age.to_string()).t(" and ");
    } else {
        b.age(age, &words(age, "-")).t(" years old and ");
    }
    b.t("lives alone near Tidewater Annex; ")
        .t(p.he())
        .t(" walks with a Zimmer frame. Examination: BP 148/86, pulse 64 irregular, Apgar-style scoring not applicable. ");
    b.t("An echocardiogram is booked for ")
        .date(recent(r), r.pick(&[12, 13, 3]))
        .t(" at ")
        .t(&time(r))
        .t(".\n\nPlan: start ")
        .t(r.pick(DRUGS))
        .t(", review in six weeks. ");
    if r.chance(50) {
        b.t("I have written to ")
            .name(&p, Nf::Nick)
            .t("'s pharmacy, Fennimore Pharmacy. ");
    }
    b.t("\n\nYours sincerely,\n\n").t(sig).t("\ncc: patient, ");
    address(&mut b, r, ", ");
    b.t("\n");
    b
}

fn hl7_pid(b: &mut B, r: &mut Rng, p: &P, dob: D) {
    b.t("PID|1||").l(Kind::Mrn, &mrn(r)).t("^^^BMG^MR");
    if r.chance(50) {
        b.t("~").l(Kind::Ssn, &ssn(r)).t("^^^SSA^SS");
    }
    b.t("||")
        .name(p, Nf::Hl7)
        .t("||")
        .l(Kind::Date, &dob.show(14));
    b.t("|").t(if p.female { "F" } else { "M" }).t("|||");
    let s = street(r);
    let c = r.pick(CITIES).to_uppercase();
    b.l(Kind::Address, &s.to_uppercase())
        .t("^^")
        .l(Kind::Address, &c)
        .t("^PA^")
        .l(Kind::Zip, &zip(r))
        .t("^USA||");
    let (a, e, l) = phone_parts(r);
    b.l(Kind::Phone, &format!("({a}){e}-{l}")).t("^PRN^PH");
    if r.chance(50) {
        let (a, e, l) = phone_parts(r);
        b.t("~")
            .l(Kind::Phone, &format!("({a}){e}-{l}"))
            .t("^PRN^CP");
    }
    b.t("|||")
        .t(r.pick(&["M", "S", "W"]))
        .t("||")
        .l(Kind::Account, &account(r))
        .t("\r");
}

fn msh(b: &mut B, r: &mut Rng, ty: &str, when: D) {
    b.t("MSH|^~\\&|EPIC|BMG|")
        .t(r.pick(&["RIDGELINE", "CORVIN", "LARCHMONT"]))
        .t("|RECV|")
        .l(Kind::Date, &hl7_ts(r, when))
        .t("||")
        .t(ty)
        .t("|MSG")
        .t(&r.digits(8))
        .t("|P|2.5.1\r");
}

fn hl7adt(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    let when = recent(r);
    let ev = r.pick(&["A01", "A03", "A04", "A08"]);
    msh(&mut b, r, &format!("ADT^{ev}"), when);
    b.t("EVN|")
        .t(ev)
        .t("|")
        .l(Kind::Date, &hl7_ts(r, when))
        .t("\r");
    let dob = birth(r);
    hl7_pid(&mut b, r, &p, dob);
    let q = other(r, &p);
    b.t("NK1|1|")
        .name(&q, Nf::Hl7)
        .t("|")
        .t(r.pick(&["DAU", "SON", "SPO", "SIS"]));
    b.t("|").l(Kind::Phone, &phone(r)).t("\r");
    b.t("PV1|1|I|4W^")
        .l(Kind::Room, &r.range(401, 440).to_string())
        .t("^");
    b.l(Kind::Room, r.pick(&["A", "B", "1", "2"]))
        .t("^BMG||||4471^SOLVANG^INGRID^^^DR|||MED||||||||")
        .l(Kind::Account, &account(r))
        .t("|||||||||||||||||||||||||")
        .l(Kind::Date, &hl7_ts(r, when))
        .t("\r");
    b.t("IN1|1|KMH01|77|Keystone Mutual|PO BOX 9120^^HARRISBURG^PA|||")
        .l(Kind::HealthPlan, &plan_id(r))
        .t("\r");
    if r.chance(50) {
        b.t("NTE|1||Pt ").t(r.pick(&["and", "\\T\\"])).t(" ");
        b.t(if p.female { "husband" } else { "wife" })
            .t(" request room near nurses\\F\\ station; fall risk (Morse 55), Foley in situ\r");
    }
    b
}

fn hl7oru(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    let when = recent(r);
    msh(&mut b, r, "ORU^R01", when);
    let dob = birth(r);
    hl7_pid(&mut b, r, &p, dob);
    b.t("ORC|RE|").t(&r.digits(7)).t("|||CM\r");
    b.t("OBR|1|")
        .t(&r.digits(7))
        .t("||")
        .t(r.pick(&["80053^CMP", "85025^CBC W DIFF", "93296^DEVICE CHECK"]))
        .t("|||")
        .l(Kind::Date, &hl7_ts(r, when))
        .t("|||||||||4471^SOLVANG^INGRID\r");
    b.t("OBX|1|NM|2823-3^Potassium||")
        .t(r.pick(&["6.1", "3.2", "4.4"]))
        .t("|mmol/L|3.5-5.1|H|||F\r");
    b.t("OBX|2|NM|2160-0^Creatinine||1.")
        .t(&r.digits(1))
        .t("|mg/dL|0.6-1.2||||F\r");
    if r.chance(60) {
        b.t("OBX|3|ST|PPM-SN^Pacemaker serial||")
            .l(Kind::Device, &serial(r))
            .t("||||||F\r");
    }
    b.t("NTE|1||Critical value called to Roz Achterberg RN at 14:32, read back. ");
    if r.chance(60) {
        b.t("Pt ")
            .name(&p, Nf::Caps)
            .t(" notified\\T\\ advised to repeat in 48h.");
    } else {
        b.t("Hemolysed x1\\S\\redraw ok.");
    }
    b.t("\r");
    b
}

fn hl7siu(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    let when = recent(r);
    msh(&mut b, r, "SIU^S12", when);
    let slot = recent(r);
    b.t("SCH|")
        .t(&r.digits(6))
        .t("||||")
        .t(r.pick(&["FU^Follow-up", "NP^New patient", "PROC^Procedure"]))
        .t("|||30|min|^^30^")
        .l(Kind::Date, &hl7_ts(r, slot))
        .t("\r");
    let dob = birth(r);
    hl7_pid(&mut b, r, &p, dob);
    b.t("AIL|1||")
        .t(r.pick(&[
            "QH^Quarry Hill Clinic",
            "TW^Tidewater Annex",
            "BFP^Bramblewood Family Practice",
        ]))
        .t("^")
        .t("EXAM ")
        .t(&r.range(1, 9).to_string())
        .t("\r");
    b.t("AIP|1||")
        .t(r.pick(&[
            "4471^SOLVANG^INGRID",
            "5120^RAGHAVAN^MEENAKSHI",
            "6033^YOO^SUNG-MIN",
        ]))
        .t("\r");
    b.t("NTE|1||");
    match r.below(3) {
        0 => {
            b.t("pt prefers text to cell ").l(Kind::Phone, &phone(r));
        }
        1 => {
            b.t("interpreter needed; pt goes by ").name(&p, Nf::Nick);
        }
        _ => {
            b.t("ride w/ daughter ")
                .name(&other(r, &p), Nf::Full)
                .t(", plate ")
                .l(Kind::Vehicle, &plate(r));
        }
    }
    b.t("\r");
    b
}

fn hl7mdmdft(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    let when = recent(r);
    if r.chance(50) {
        msh(&mut b, r, "MDM^T02", when);
        b.t("EVN|T02|").l(Kind::Date, &hl7_ts(r, when)).t("\n");
        let dob = birth(r);
        hl7_pid(&mut b, r, &p, dob);
        b.text.pop();
        b.t("\nTXA|1|CN|TX|")
            .l(Kind::Date, &hl7_ts(r, when))
            .t("|4471^SOLVANG^INGRID||||||DOC")
            .t(&r.digits(6))
            .t("||||||AU\n");
        b.t("OBX|1|TX|NOTE||")
            .name(&p, Nf::Caps)
            .t(" seen today for ");
        b.t(r.pick(WHY)).t(". ");
        let age = r.range(70, 102);
        b.t("Age ").age(age, &age.to_string()).t(". Lives at ");
        b.l(Kind::Address, &street(r)).t(". ");
        b.t("Glasgow 15\\T\\ oriented x3.\n");
        b.t("OBX|2|TX|NOTE||Return ")
            .t(weekday(r))
            .t(" for wound check.\n");
    } else {
        msh(&mut b, r, "DFT^P03", when);
        b.t("EVN|P03|").l(Kind::Date, &hl7_ts(r, when)).t("\n");
        let dob = birth(r);
        hl7_pid(&mut b, r, &p, dob);
        b.text.pop();
        b.t("\nPV1|1|O|QH^^^Quarry Hill Clinic\n");
        for i in 1..=r.range(1, 3) {
            b.t("FT1|")
                .t(&i.to_string())
                .t("|||")
                .l(Kind::Date, &recent(r).show(14))
                .t("||CG|")
                .t(r.pick(&[
                    "99214^Office visit est",
                    "36415^Venipuncture",
                    "93000^ECG 12 lead",
                    "G0439^AWV subsequent",
                ]))
                .t("|||1|")
                .t(&r.range(20, 300).to_string())
                .t(".00\n");
        }
        b.t("IN1|1|EVG|||Evergreen Health Plan||||||||||")
            .name(&p, Nf::Hl7)
            .t("|SEL|||||||||||||||||||||")
            .l(Kind::HealthPlan, &plan_id(r))
            .t("\n");
    }
    b
}

fn voicemail(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    b.t("voicemail transcript, received ")
        .t(weekday(r))
        .t(" ")
        .t(&time(r))
        .t(" (confidence 0.8")
        .t(&r.digits(1))
        .t(")\n\n");
    let self_call = r.chance(55);
    if self_call {
        b.t(r.pick(&[
            "hi um this is ",
            "hello yes it's ",
            "hey good morning this is ",
        ]));
        b.name(&p, r.pick(&[Nf::Lower, Nf::Lower, Nf::Given]));
        if r.chance(40) {
            let spelled: Vec<String> = ascii_fold(p.family)
                .chars()
                .map(|c| c.to_string())
                .collect();
            b.t(" last name ").l(Kind::Person, &spelled.join("-"));
        }
        b.t(" calling about my ")
            .t(r.pick(&["refill", "blood work", "appointment", "bill"]));
    } else {
        b.t("hi it's ")
            .name(&other(r, &p), Nf::Given)
            .t(" i'm calling for my ")
            .t(if p.female { "mom " } else { "dad " })
            .name(&p, Nf::Lower);
        let age = r.range(88, 101);
        b.t(" ")
            .t(p.he())
            .t("'s uh ")
            .age(age, &words(age, " "))
            .t(" now and");
    }
    b.t(" ");
    let dob = if self_call { birth(r) } else { old_birth(r) };
    b.t(r.pick(&["date of birth ", "birthday is ", "d o b "]))
        .date(dob, r.pick(&[16, 17, 18]))
        .t(" ");
    match r.below(3) {
        0 => {
            b.t("um the medical record number is ");
            let m = r.num(7);
            b.l(Kind::Mrn, &spoken_digits(r, &m)).t(" ");
        }
        1 => {
            b.t("we're at ");
            let n = r.range(12, 980);
            b.l(
                Kind::Address,
                &format!(
                    "{} {} {}",
                    words(n % 100, " "),
                    r.pick(STREETS).to_lowercase(),
                    r.pick(&["road", "street", "lane"])
                ),
            )
            .t(" ");
        }
        _ => {
            b.t("the appointment was ")
                .date(recent(r), 16)
                .t(" but ")
                .t(weekday(r))
                .t(" works better ");
        }
    }
    b.t("so you can call me back at ");
    let (a, e, l) = phone_parts(r);
    let spoken = spoken_digits(r, &format!("{a}{e}{l}"));
    b.l(Kind::Phone, &spoken).t(" ");
    b.t(r.pick(&[
        "thanks bye",
        "okay thank you so much",
        "after three is best thanks",
    ]))
    .t("\n");
    b
}

fn schedchat(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    let q = other(r, &p);
    let (h, m) = (r.range(7, 11), r.range(0, 50));
    let staff = ["roz", "deb", "kiri", "jamal", "bernie"];
    let s1 = r.pick(&staff);
    let s2 = r.pick(&["deb", "kiri"]);
    let s3 = r.pick(&["jamal", "roz"]);
    b.t(&format!("[{h:02}:{m:02}] {s1}: can someone move "));
    let initial = ascii_fold(p.family).chars().next().unwrap_or('x');
    if r.chance(40) {
        b.t(if p.female { "mrs " } else { "mr " })
            .l(Kind::Person, &initial.to_string())
            .t("'s ");
    } else {
        b.name(&p, Nf::Nick).t("'s ");
    }
    b.t(&time(r)).t(" to ").t(weekday(r)).t("?\n");
    b.t(&format!("[{h:02}:{:02}] {s2}: which one, ", m + 1));
    b.l(Kind::Person, &p.family.to_lowercase()).t("?\n");
    b.t(&format!("[{h:02}:{:02}] {s1}: yes ", m + 2))
        .name(&p, Nf::Lower)
        .t(", dob ")
        .date(birth(r), r.pick(&[1, 13, 11]))
        .t("\n");
    b.t(&format!("[{h:02}:{:02}] {s3}: ", m + 3));
    match r.below(3) {
        0 => {
            b.t("fyi ")
                .name(&q, Nf::Nick)
                .t(" in room ")
                .l(Kind::Room, &r.range(1, 9).to_string());
            b.t(" has been waiting 40 min, bp 150/90, dr solvang knows");
        }
        1 => {
            b.t("also ")
                .name(&q, Nf::InitLast)
                .t(" called, wants ")
                .t(q.his())
                .t(" inr result, cell ")
                .l(Kind::Phone, &phone(r));
        }
        _ => {
            let age = r.range(90, 99);
            b.t("the ")
                .age(age, &age.to_string())
                .t(" yo from friday (")
                .name(&q, Nf::Given)
                .t(") needs transport again, mrn ")
                .l(Kind::Mrn, &mrn(r));
        }
    }
    b.t("\n");
    b.t(&format!("[{h:02}:{:02}] {s2}: done, moved to ", m + 5))
        .date(recent(r), 13)
        .t(" 2:15 with priya\n");
    b
}

fn billing(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    b.t("BRAMBLEWOOD MEDICAL GROUP  •  PATIENT STATEMENT\n");
    b.t("Statement date: ")
        .date(recent(r), r.pick(&[0, 3, 5]))
        .t("\n");
    b.t("Account no.: ").l(Kind::Account, &account(r)).t("\n\n");
    b.name(&p, r.pick(&[Nf::Caps, Nf::CapsLastFirst, Nf::FullMid]))
        .t("\n");
    let s = street(r);
    b.l(Kind::Address, &s.to_uppercase()).t("\n");
    b.l(Kind::Address, &r.pick(CITIES).to_uppercase())
        .t(" PA ")
        .l(Kind::Zip, &zip(r))
        .t("\n\n");
    b.t("Date of service   Code    Description              Charge\n");
    let mut total = 0;
    for _ in 0..r.range(1, 3) {
        let amt = r.range(40, 420);
        total += amt;
        b.date(recent(r), r.pick(&[0, 1, 6]))
            .t("      ")
            .t(r.pick(&[
                "99213   Office visit, est.  ",
                "99214   Office visit, mod. ",
                "80061   Lipid panel        ",
                "36415   Venipuncture       ",
            ]))
            .t(&format!("   ${amt}.00\n"));
    }
    b.t("Keystone Mutual paid, member ")
        .l(Kind::HealthPlan, &plan_id(r))
        .t(&format!("      -${}.00\n", total / 2));
    b.t(&format!("AMOUNT DUE  ${}.{:02}\n\n", total - total / 2, 0));
    if r.chance(40) {
        b.t("Card on file: ")
            .l(Kind::Card, &card(r))
            .t("  (autopay on the 5th)\n");
    } else {
        b.t("Questions? Call Bernadette Ocampo in billing at ")
            .l(Kind::Phone, &phone(r))
            .t(", Mon–Fri 8:30 to 4.\n");
    }
    b
}

fn collect(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    b.t("Northgate Recovery Services\nOn behalf of Bramblewood Medical Group\n\n");
    b.date(recent(r), r.pick(&[3, 4])).t("\n\n");
    b.name(&p, r.pick(&[Nf::FullMid, Nf::Caps])).t("\n");
    address(&mut b, r, "\n");
    b.t("\n\nRE: FINAL NOTICE — account ")
        .l(Kind::Account, &account(r))
        .t(", balance $")
        .t(&r.range(120, 2400).to_string())
        .t(".")
        .t(&r.digits(2))
        .t("\n\nDear ")
        .name(&p, r.pick(&[Nf::Title, Nf::Full]))
        .t(",\n\n");
    b.t("Our records show no payment for services on ")
        .date(recent(r), r.pick(&[0, 3, 11]))
        .t(". If this balance is not resolved within 30 days it may be reported. ");
    b.t("To set up a payment plan call ")
        .l(Kind::Phone, &phone(r))
        .t(" or write to us quoting your date of birth (")
        .date(birth(r), r.pick(&[0, 2]))
        .t(") and the last four digits of the card you wish to use.\n\n");
    if r.chance(40) {
        b.t("A payment of $50 from card ")
            .l(Kind::Card, &card(r))
            .t(" was declined on ")
            .date(recent(r), 0)
            .t(".\n\n");
    }
    b.t("Sincerely,\nGwen Pettigrew, Account Resolution\n");
    b
}

fn attach(r: &mut Rng) -> B {
    let mut b = B::default();
    let n = r.range(2, 4);
    b.t("Attachments (").t(&n.to_string()).t("):\n");
    for _ in 0..n {
        let p = pat(r);
        let d = recent(r);
        b.t("  ");
        match r.below(7) {
            0 => {
                b.l(Kind::Person, &ascii_fold(p.family).to_uppercase())
                    .t("_")
                    .l(Kind::Person, &ascii_fold(p.given).to_uppercase())
                    .t("_")
                    .l(Kind::Date, &d.show(14))
                    .t("_MRI_L-spine.pdf");
            }
            1 => {
                b.l(Kind::Person, &p.glued_family())
                    .l(Kind::Person, &p.glued_given())
                    .t("-DOB")
                    .l(Kind::Date, &birth(r).show(15))
                    .t(".jpg");
            }
            2 => {
                b.t("referral.")
                    .l(Kind::Person, &ascii_fold(p.family))
                    .t(".")
                    .l(Kind::Person, &ascii_fold(p.given))
                    .t(".")
                    .l(Kind::Mrn, &r.num(7))
                    .t(".docx");
            }
            3 => {
                b.t("scan0")
                    .t(&r.digits(3))
                    .t("_")
                    .l(Kind::Mrn, &mrn(r))
                    .t("_")
                    .l(Kind::Person, &ascii_fold(p.family))
                    .l(Kind::Person, &p.glued_given())
                    .t(".tif");
            }
            4 => {
                b.l(Kind::Person, &p.glued_family())
                    .l(Kind::Person, &p.glued_given())
                    .t("Labs")
                    .l(Kind::Date, &d.show(14))
                    .t(".pdf");
            }
            5 => {
                b.t("EOB-")
                    .l(Kind::HealthPlan, &plan_id(r))
                    .t("-")
                    .l(Kind::Date, &format!("{}-{:02}-{:02}", d.y, d.m, d.d))
                    .t(".pdf");
            }
            _ => {
                b.t("wound_photo_")
                    .l(Kind::Person, &ascii_fold(p.given))
                    .t("_")
                    .l(Kind::Person, &ascii_fold(p.family))
                    .t("_rm")
                    .l(Kind::Room, &r.range(201, 480).to_string())
                    .t("_")
                    .l(Kind::Date, &d.show(15))
                    .t(".HEIC");
            }
        }
        b.t(&format!("  ({} KB)\n", r.range(40, 9000)));
    }
    b
}

fn subjects(r: &mut Rng) -> B {
    let mut b = B::default();
    for _ in 0..r.range(3, 4) {
        let p = pat(r);
        b.t("Subject: ");
        match r.below(6) {
            0 => {
                b.t("RE: FW: ")
                    .name(&p, Nf::LastFirst)
                    .t(" - DOB ")
                    .date(birth(r), r.pick(&[0, 1, 2]))
                    .t(" - labs");
            }
            1 => {
                b.t("pt ")
                    .l(Kind::Mrn, &mrn(r))
                    .t(" ")
                    .name(&p, Nf::Full)
                    .t(" appt ")
                    .date(recent(r), 13)
                    .t(" moved to ")
                    .t(weekday(r));
            }
            2 => {
                b.t("[Secure] ")
                    .l(Kind::Person, &ascii_fold(p.family).to_uppercase())
                    .l(Kind::Person, &ascii_fold(p.given).to_uppercase())
                    .l(Kind::Date, &birth(r).show(14))
                    .t(" MRI report");
            }
            3 => {
                b.t("Prior auth needed: ")
                    .name(&p, Nf::InitLast)
                    .t(" / ")
                    .t(r.pick(&["Ozempic", "Humira", "Eliquis", "CPAP"]))
                    .t(" / member ")
                    .l(Kind::HealthPlan, &plan_id(r));
            }
            4 => {
                let age = r.range(90, 104);
                b.t("Fall at home - ")
                    .age(age, &format!("{age}"))
                    .t("F ")
                    .name(&p, Nf::Family)
                    .t(", bed ")
                    .l(Kind::Room, &room(r));
            }
            _ => {
                b.t("call back ")
                    .name(&p, Nf::Nick)
                    .t(" re: bill @ ")
                    .l(Kind::Phone, &phone(r));
            }
        }
        b.t("\n");
    }
    b
}

fn forward(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    let e = email(r, &p);
    b.t("Deb — can you add this to the chart? thx, Roz\n\n");
    b.t("---------- Forwarded message ---------\nFrom: ");
    b.name(&p, Nf::Full).t(" <").l(Kind::Email, &e).t(">\n");
    let d = recent(r);
    b.t("Date: ")
        .t(r.pick(&["Mon", "Tue", "Wed", "Thu", "Fri"]))
        .t(", ")
        .l(Kind::Date, &format!("{} {}, {}", d.mon(), d.d, d.y))
        .t(" at ")
        .t(&time(r))
        .t("\nSubject: ")
        .t(r.pick(&[
            "question about my mri",
            "Re: test results",
            "forms for work",
        ]))
        .t("\nTo: Bramblewood Family Practice\n\n");
    b.t(r.pick(&["Hi,", "Hello Dr Solvang,", "Good evening,"]))
        .t("\n\n");
    b.t("Sorry to bother you again. ");
    match r.below(3) {
        0 => {
            b.t("My insurance changed, the new member ID is ")
                .l(Kind::HealthPlan, &plan_id(r))
                .t(" with Evergreen Health Plan. ");
        }
        1 => {
            b.t("I moved, my new address is ");
            address(&mut b, r, ", ");
            b.t(". ");
        }
        _ => {
            b.t("My husband ")
                .name(&other(r, &p), Nf::Given)
                .t(" said the MRI disc is ready, can he pick it up ")
                .t(weekday(r))
                .t("? ");
        }
    }
    b.t("\n\nThanks,\n")
        .name(&p, r.pick(&[Nf::Given, Nf::Nick, Nf::Full]))
        .t("\n");
    b.t("Sent from my iPhone\n\n> On ")
        .date(recent(r), r.pick(&[3, 0]))
        .t(", Bramblewood Family Practice wrote:\n> Dear ")
        .name(&p, Nf::Title)
        .t(", your results are available in the portal.\n");
    b
}

fn portal(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    b.t("MyBramblewood secure message\nFrom: ")
        .name(&p, r.pick(&[Nf::Full, Nf::LastFirst]))
        .t(" (patient)   MRN ")
        .l(Kind::Mrn, &mrn(r))
        .t("\nSent: ")
        .date(recent(r), r.pick(&[0, 1, 5]))
        .t(" ")
        .t(&time(r))
        .t("   Session IP: ")
        .l(Kind::Ip, &ip(r))
        .t("\nTo: Dr. Ingrid Solvang\n\n");
    b.t(r.pick(&["hi dr solvang, ", "Hello, ", "Dr. Solvang - "]));
    b.t("it's ")
        .name(&p, r.pick(&[Nf::Given, Nf::Nick]))
        .t(" again. ");
    match r.below(4) {
        0 => {
            b.t("The rash is back, I uploaded photos here: ");
            b.l(
                Kind::Url,
                &format!("https://photos.app.goo.gl/{}{}", r.letters(6), r.digits(4)),
            );
            b.t(" . ");
        }
        1 => {
            b.t("My pump alarmed twice overnight, serial ")
                .l(Kind::Device, &serial(r))
                .t(", blood sugar was 62 at 3 am. ");
        }
        2 => {
            b.t("Please send the letter for the DMV, my licence number is ")
                .l(Kind::License, &licence(r))
                .t(". ");
        }
        _ => {
            b.t("My mother ")
                .name(&other(r, &p), Nf::Full)
                .t(" turned ");
            let age = r.range(90, 102);
            b.age(age, &age.to_string())
                .t(" on ")
                .date(recent(r), 12)
                .t(" and wants to switch to you too. ");
        }
    }
    b.t("I read the guidance at https://www.cdc.gov/flu/ already. ")
        .t("Can I take ibuprofen 400 mg with the ")
        .t(r.pick(DRUGS))
        .t("?\n\n— ")
        .name(&p, Nf::Given)
        .t("\n");
    b
}

fn refill(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    b.t("FAX  ***  REFILL AUTHORIZATION REQUEST  ***\n");
    b.t("To: Dr. Ingrid Solvang      Fax: ")
        .l(Kind::Fax, &phone(r))
        .t("\n");
    b.t("From: Fennimore Pharmacy   Ph: ")
        .l(Kind::Phone, &phone(r))
        .t("   Fax: ")
        .l(Kind::Fax, &phone(r))
        .t("\nPages: 1   Sent: ")
        .date(recent(r), r.pick(&[0, 1]))
        .t(" ")
        .t(&time(r))
        .t("\n\nPATIENT: ")
        .name(&p, r.pick(&[Nf::CapsLastFirst, Nf::Caps]))
        .t("\nDOB: ")
        .date(birth(r), r.pick(&[0, 1, 6]))
        .t("   PHONE: ")
        .l(Kind::Phone, &phone(r))
        .t("\nADDR: ");
    address(&mut b, r, ", ");
    b.t("\n\nDRUG: ")
        .t(&r.pick(DRUGS).to_uppercase())
        .t(" TAB  QTY 90  REFILLS 3\nSIG: 1 PO QD\nLAST FILLED: ")
        .date(recent(r), r.pick(&[0, 1]))
        .t("\n\n[ ] APPROVED   [ ] DENIED   Pharmacist: Nikhil Bhattacharjee, PharmD\n");
    b
}

fn priorauth(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    b.t("PRIOR AUTHORIZATION REQUEST — ")
        .t(r.pick(&[
            "Keystone Mutual",
            "Evergreen Health Plan",
            "Harborline Medicaid",
        ]))
        .t("\nFax to: ")
        .l(Kind::Fax, &phone(r))
        .t("\n\nMember name: ");
    b.name(&p, Nf::LastFirst)
        .t("\nMember ID: ")
        .l(Kind::HealthPlan, &plan_id(r));
    b.t("   Group: 00")
        .t(&r.digits(4))
        .t("\nDate of birth: ")
        .date(birth(r), r.pick(&[0, 2]))
        .t("\nMember phone: ")
        .l(Kind::Phone, &phone(r))
        .t("\n\nDrug requested: ")
        .t(r.pick(&[
            "Ozempic 1 mg weekly",
            "Humira 40 mg q2w",
            "Repatha 140 mg",
            "Dupixent 300 mg",
        ]))
        .t("\nDiagnosis: E11.65, HbA1c 8.9% (")
        .date(recent(r), 0)
        .t(")\nTried and failed: metformin 1000 mg BID x 2 years, glipizide 5 mg\n");
    b.t("Prescriber: Ingrid Solvang, MD   NPI on file   Office fax: ")
        .l(Kind::Fax, &phone(r))
        .t("\n");
    if r.chance(50) {
        b.t("Notes: ")
            .name(&p, Nf::Title)
            .t(" weighs 104 kg, BMI 36; see attached ")
            .l(Kind::Person, &p.glued_family())
            .t("_PA_")
            .l(Kind::Date, &recent(r).show(14))
            .t(".pdf\n");
    }
    b
}

fn discharge(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    b.t("DISCHARGE SUMMARY — Quarry Hill Clinic inpatient unit\n");
    b.t("Patient: ")
        .name(&p, r.pick(&[Nf::LastFirst, Nf::Caps, Nf::FullMid]));
    b.t("    MRN: ")
        .l(Kind::Mrn, &mrn(r))
        .t("    Room: ")
        .l(Kind::Room, &room(r))
        .t("\n");
    let adm = recent(r);
    b.t("Admitted: ")
        .date(adm, r.pick(&[0, 2, 5]))
        .t("    Discharged: ");
    let out = D {
        d: (adm.d + r.range(1, 6)).min(28),
        ..adm
    };
    b.date(out, r.pick(&[0, 2, 5]))
        .t("\nAttending: Dr. Meenakshi Raghavan\n\n");
    let age = r.range(60, 104);
    b.t("HPI: ")
        .name(&p, Nf::Title)
        .t(" is a ")
        .age(age, &age.to_string())
        .t(r.pick(&["-year-old ", " y/o ", " yo "]))
        .t(if p.female { "woman" } else { "man" })
        .t(" admitted with ")
        .t(r.pick(WHY))
        .t(".\n\nCourse: Foley removed day 2. GCS 15 throughout. Parkinson's medications continued. ");
    if r.chance(50) {
        b.t("ICD interrogated, device serial ")
            .l(Kind::Device, &serial(r))
            .t(", no events. ");
    }
    let kin = other(r, &p);
    b.t("\n\nDischarge meds: ")
        .t(r.pick(DRUGS))
        .t(" daily; ")
        .t(r.pick(DRUGS))
        .t(" at night.\n\nFollow-up: Dr. Solvang ")
        .t(weekday(r))
        .t("; labs in 1 week.\nDischarged home with ")
        .t(kin.child())
        .t(" ")
        .name(&kin, r.pick(&[Nf::Full, Nf::Given]))
        .t(" (")
        .l(Kind::Phone, &phone(r))
        .t(").\n");
    b
}

fn soap(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    b.t("Progress note — ")
        .date(recent(r), r.pick(&[0, 1, 2]))
        .t("\n")
        .name(&p, Nf::LastFirst)
        .t(" | DOB ")
        .date(birth(r), 1)
        .t(" | ")
        .l(Kind::Mrn, &mrn(r))
        .t("\n\nS: ");
    b.name(&p, r.pick(&[Nf::Given, Nf::Nick, Nf::Title]))
        .t(" reports ")
        .t(r.pick(&[
            "3 days of cough",
            "knee pain on stairs",
            "low mood since the spring",
            "dizziness on standing",
        ]))
        .t(". ");
    if r.chance(50) {
        let q = other(r, &p);
        b.t("Accompanied by ")
            .t(if q.female { "wife " } else { "husband " })
            .name(&q, Nf::Given)
            .t(". ");
    }
    b.t("Marked improvement with rest.\nO: T 37.9, BP 132/84, HR 72, SpO2 96% RA. Homan's sign negative.\n");
    b.t("A: ")
        .t(r.pick(WHY))
        .t("\nP: ")
        .t(r.pick(DRUGS))
        .t("; recheck ")
        .t(weekday(r))
        .t(". ");
    let age = r.range(86, 99);
    b.t("Pt is ")
        .age(age, &format!("{age}"))
        .t("; lives with ")
        .t(p.his())
        .t(" son at ");
    address(&mut b, r, ", ");
    b.t(".\n— I. Solvang\n");
    b
}

fn intake(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    b.t("NEW PATIENT INTAKE — Bramblewood Family Practice\n\n");
    b.t("Last name: ")
        .l(Kind::Person, p.family)
        .t("      First: ")
        .l(Kind::Person, p.given);
    b.t("      MI: ").l(Kind::Person, p.mid).t("\n");
    if !p.nick.is_empty() {
        b.t("Preferred name: ").l(Kind::Person, p.nick).t("\n");
    }
    let old = r.chance(40);
    let dob = if old { old_birth(r) } else { birth(r) };
    b.t("Date of birth: ").date(dob, r.pick(&[0, 2, 11]));
    let age = 2026 - dob.y;
    b.t("   Age: ")
        .age(age, &age.to_string())
        .t("   Sex: ")
        .t(if p.female { "F" } else { "M" });
    b.t("\nSSN: ")
        .l(Kind::Ssn, &ssn(r))
        .t("\nStreet: ")
        .l(Kind::Address, &street(r));
    b.t("\nCity: ")
        .l(Kind::Address, r.pick(CITIES))
        .t("   State: PA   ZIP: ")
        .l(Kind::Zip, &zip(r));
    b.t("\nHome phone: ")
        .l(Kind::Phone, &phone(r))
        .t("\nEmail: ")
        .l(Kind::Email, &email(r, &p));
    b.t("\nDriver's license #: ")
        .l(Kind::License, &licence(r))
        .t(" (PA)");
    if r.chance(50) {
        b.t("\nParking permit plate: ").l(Kind::Vehicle, &plate(r));
    }
    let q = other(r, &p);
    let rel = if q.female {
        r.pick(&["spouse", "sister", "friend", "daughter"])
    } else {
        r.pick(&["spouse", "brother", "friend", "son"])
    };
    b.t("\nEmergency contact: ")
        .name(&q, Nf::Full)
        .t(" (")
        .t(rel);
    b.t(") ").l(Kind::Phone, &phone(r));
    b.t("\nInsurance: Keystone Mutual   Member ID: ")
        .l(Kind::HealthPlan, &plan_id(r));
    b.t("\nAllergies: penicillin (hives)   Current meds: ")
        .t(r.pick(DRUGS));
    b.t("\nSmoker: quit 2011\n");
    b
}

// ---------------------------------------------------------------------------------------------
// Families no earlier set wrote

fn dental(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    b.t("Bramblewood Dental — chart note\nPt: ")
        .name(&p, r.pick(&[Nf::LastFirst, Nf::Full]))
        .t("   Chart #")
        .l(Kind::Mrn, &r.num(6))
        .t("   DOB ")
        .date(birth(r), r.pick(&[0, 1]))
        .t("\nVisit: ")
        .date(recent(r), r.pick(&[0, 5]))
        .t("   Provider: Priya Venkataraman, DDS\n\n");
    b.t("#14 MOD composite, shade A2. #3 crown prep, temp placed. #30 watch (distal caries).\n");
    b.t("Perio: 3 2 3 / 4 3 5 UR, BOP 12%. 4 BWX taken, file ")
        .l(Kind::Person, &ascii_fold(p.family))
        .t("_bwx_")
        .l(Kind::Date, &recent(r).show(14))
        .t(".dcm\n");
    b.t("Med hx: ")
        .t(r.pick(DRUGS))
        .t(", premed not required. ")
        .name(&p, Nf::Given)
        .t(" anxious, nitrous 30%.\nNext recall: ")
        .date(recent(r), r.pick(&[3, 12]))
        .t(" ")
        .t(&time(r))
        .t(". Reminder to ")
        .l(Kind::Phone, &phone(r))
        .t(".\n");
    if r.chance(40) {
        b.t("Ins: Evergreen Health Plan dental, subscriber ")
            .name(&other(r, &p), Nf::Full)
            .t(", ID ")
            .l(Kind::HealthPlan, &plan_id(r))
            .t("\n");
    }
    b
}

fn optometry(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    b.t("Clearbrook Eye Care\nExam date: ")
        .date(recent(r), r.pick(&[0, 2, 4]))
        .t("\nName: ")
        .name(&p, r.pick(&[Nf::Full, Nf::Caps, Nf::LastFirst]))
        .t("   DOB: ")
        .date(birth(r), r.pick(&[0, 7]))
        .t("\n\nRx  OD  -2.25 -0.50 x 180   OS  -2.00 DS   Add +1.75   PD 63\n");
    b.t("IOP 16/17 mmHg (Goldmann). Fundus: C/D 0.3 OU, no Hollenhorst plaques.\n");
    match r.below(3) {
        0 => {
            b.t("DMV vision form completed for licence ")
                .l(Kind::License, &licence(r))
                .t(": VA 20/25 OU, meets standard without restriction.\n");
        }
        1 => {
            b.t("Contact lens order: Acuvue Oasys 8.4/14.0, ship to ");
            address(&mut b, r, ", ");
            b.t("\n");
        }
        _ => {
            b.t("Referred to Dr. Laszlo Farkas for cataract eval; ")
                .name(&p, Nf::Title)
                .t(" drives at night, plate ")
                .l(Kind::Vehicle, &plate(r))
                .t(".\n");
        }
    }
    b.t("Return in 1 year. Questions: ")
        .l(Kind::Email, &email(r, &p))
        .t("\n");
    b
}

fn physio(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    b.t("PHYSIOTHERAPY PLAN OF CARE — Tidewater Annex\n");
    b.t("Client: ")
        .name(&p, r.pick(&[Nf::Full, Nf::FullMid, Nf::LastFirst]));
    b.t("\nDOB: ").date(birth(r), r.pick(&[0, 3]));
    b.t("   Date of injury: ")
        .date(recent(r), r.pick(&[0, 3, 4]));
    b.t("\nClaim no.: ")
        .l(Kind::Account, &format!("WC-{}-{}", r.num(4), r.digits(5)));
    b.t("\nTherapist: Maren Lindqvist, PT, DPT\n\n");
    b.t("Dx: R rotator cuff tendinopathy. ROM flex 0-120°, abd 0-95°, ER 40°. Strength 4-/5.\n");
    b.t("Goals (6 wks): flex to 160°, lift 5 kg overhead, return to work.\n");
    b.t("Plan: 2x/week Tuesday & Thursday, HEP with theraband; ice 15 min.\n");
    let age = r.range(55, 96);
    b.t("Note: ")
        .name(&p, Nf::Given)
        .t(" is ")
        .age(age, &age.to_string())
        .t(" and gets a ride from ")
        .name(&other(r, &p), Nf::Nick)
        .t("; reschedule via ")
        .l(Kind::Phone, &phone(r))
        .t(".\n");
    b
}

fn ambulance(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    let age = r.range(70, 102);
    b.t("Medic 14 to Quarry Hill ED, ETA 8 min. ");
    b.age(age, &age.to_string())
        .t(r.pick(&[" yo ", " y/o ", "-year-old "]))
        .t(if p.female { "female" } else { "male" })
        .t(", found down at ");
    b.l(Kind::Address, &street(r))
        .t(" by neighbour. GCS 13 (E3 V4 M6), BP 92/58, HR 118, SpO2 91% on 4 L, BGL 6.1.\n");
    b.t("Name per daughter: ")
        .name(&p, r.pick(&[Nf::Caps, Nf::Full, Nf::CapsLastFirst]))
        .t(", DOB ")
        .date(old_birth(r), r.pick(&[0, 1]))
        .t(". Meds in bag: ")
        .t(r.pick(DRUGS))
        .t(", warfarin. Hx Parkinson's.\n");
    if r.chance(50) {
        b.t("MVC component: pt was driver of sedan plate ")
            .l(Kind::Vehicle, &plate(r))
            .t(", VIN ")
            .l(Kind::Vehicle, &vin(r))
            .t(", restrained.\n");
    } else {
        let q = other(r, &p);
        b.t(&cap(q.child()))
            .t(" ")
            .name(&q, Nf::Given)
            .t(" following in own car, cell ")
            .l(Kind::Phone, &phone(r))
            .t(".\n");
    }
    b.t("Handover to Roz at bed ")
        .l(Kind::Room, &r.range(1, 22).to_string())
        .t(". Crew: Darnell Fitch, EMT-P.\n");
    b
}

fn pharmsms(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    let (a, e, l) = phone_parts(r);
    b.t("SMS log, Fennimore Pharmacy short code 73412\nTo: ")
        .l(Kind::Phone, &format!("+1{a}{e}{l}"))
        .t("\n");
    b.t(&format!("{:02}:{:02} ", r.range(8, 19), r.range(0, 59)))
        .t("Fennimore Pharmacy: Hi ")
        .name(&p, r.pick(&[Nf::Given, Nf::Caps, Nf::Nick]))
        .t(", your Rx for ")
        .t(r.pick(&[
            "amoxicillin 500 mg",
            "ATORVASTATIN 40MG",
            "prednisone 10 mg",
            "insulin glargine",
        ]))
        .t(" is ready. Pick up by ")
        .t(weekday(r))
        .t(". Reply STOP to opt out.\n");
    b.t(&format!("{:02}:{:02} ", r.range(8, 19), r.range(0, 59)));
    match r.below(3) {
        0 => {
            b.t("Reply: can my son ")
                .name(&other(r, &p), Nf::Given)
                .t(" get it? his dob is ")
                .date(birth(r), 1);
        }
        1 => {
            b.t("Reply: its for ")
                .name(&p, Nf::Lower)
                .t(" birthday ")
                .date(birth(r), r.pick(&[1, 13]));
        }
        _ => {
            b.t("Fennimore Pharmacy: copay $")
                .t(&r.range(5, 45).to_string())
                .t(". Pay online ")
                .l(
                    Kind::Url,
                    &format!("https://fennimore.rx/pay/{}", r.letters(5)),
                )
                .t(" or call ")
                .l(Kind::Phone, &phone(r));
        }
    }
    b.t("\n");
    b.t(&format!("{:02}:{:02} ", r.range(8, 19), r.range(0, 59)))
        .t("Fennimore Pharmacy: Thank you. Ref ")
        .name(&p, Nf::InitLast)
        .t(", DOB ")
        .date(birth(r), 1)
        .t(".\n");
    b
}

fn interpret(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat(r);
    let lang = r.pick(&[
        "Somali",
        "Amharic",
        "Dari",
        "Haitian Creole",
        "Vietnamese",
        "Arabic",
        "Mandarin",
        "Yoruba",
        "Korean",
        "Ukrainian",
    ]);
    b.t("INTERPRETER REQUEST — to Luz Marina Ardila, language services\n");
    b.t("Language: ")
        .t(lang)
        .t(r.pick(&["", " (female interpreter preferred)"]))
        .t("\n");
    b.t("Patient: ")
        .name(&p, r.pick(&[Nf::LastFirst, Nf::Full, Nf::Caps]));
    b.t("   MRN ").l(Kind::Mrn, &mrn(r)).t("\nAppointment: ");
    b.date(recent(r), r.pick(&[0, 3, 12])).t(" at ").t(&time(r));
    b.t(", ").t(r.pick(&[
        "Quarry Hill Clinic",
        "Tidewater Annex",
        "Bramblewood Family Practice",
    ]));
    b.t(", exam room ")
        .l(Kind::Room, &r.range(1, 12).to_string())
        .t("\n");
    b.t("Type: ")
        .t(r.pick(&["in person", "video (VRI)", "telephone"]))
        .t("   Length: 40 min\n");
    b.t("Notes: ");
    if r.chance(50) {
        b.t("family usually brings ")
            .name(&other(r, &p), Nf::Full)
            .t(" to interpret but we need a qualified interpreter for consent. ");
    }
    b.t("Contact for the patient: ")
        .l(Kind::Phone, &phone(r))
        .t(".\nRequested by Kiri Tane\n");
    b
}

const DE_MONATE: [&str; 12] = [
    "Januar",
    "Februar",
    "März",
    "April",
    "Mai",
    "Juni",
    "Juli",
    "August",
    "September",
    "Oktober",
    "November",
    "Dezember",
];

fn german(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = if r.chance(60) {
        pat_tagged(r, 'g')
    } else {
        pat(r)
    };
    b.t("Betreff: Überweisung ");
    b.name(&p, Nf::LastFirst)
        .t("\n\nSehr geehrte Frau Dr. Oberländer,\n\n");
    b.t("wir überweisen ")
        .t(if p.female { "Frau " } else { "Herrn " })
        .name(&p, Nf::Full)
        .t(", geb. ");
    let d = if r.chance(50) { old_birth(r) } else { birth(r) };
    if r.chance(50) {
        b.date(d, 7);
    } else {
        b.l(
            Kind::Date,
            &format!("{}. {} {}", d.d, DE_MONATE[(d.m - 1) as usize], d.y),
        );
    }
    b.t(", wohnhaft ")
        .l(
            Kind::Address,
            &format!(
                "{}{} {}",
                r.pick(&["Linden", "Birken", "Mühlen", "Kirch"]),
                r.pick(&["straße", "weg", "gasse"]),
                r.range(1, 120)
            ),
        )
        .t(", ")
        .l(Kind::Zip, &r.num(5))
        .t(" ")
        .l(
            Kind::Address,
            r.pick(&["Freiburg im Breisgau", "Bad Tölz", "Münster", "Hildesheim"]),
        )
        .t(", zur Mitbeurteilung bei Vorhofflimmern. ");
    let age = 2026 - d.y;
    b.t(if p.female {
        "Die Patientin"
    } else {
        "Der Patient"
    })
    .t(" ist ")
    .age(age, &age.to_string())
    .t(" Jahre alt und nimmt ")
    .t(r.pick(DRUGS))
    .t(" 1-0-1.\n");
    b.t("Versichertennummer: ")
        .l(Kind::HealthPlan, &format!("{}{}", r.letters(1), r.num(9)))
        .t("   Tel.: ")
        .l(Kind::Phone, &format!("0{} {}", r.range(30, 899), r.num(7)))
        .t("\nLetzte Vorstellung: ")
        .date(recent(r), 7)
        .t(", nächster Termin am Donnerstag.\n\nMit freundlichen Grüßen\nDr. Ingrid Solvang\n");
    b
}

fn korean(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat_tagged(r, 'k');
    let name_kr = format!("{} {}", p.family, p.given);
    b.t("[Bramblewood Family Practice] annyeonghaseyo, ");
    if r.chance(50) {
        b.l(Kind::Person, &name_kr).t("-nim. ");
    } else {
        b.l(Kind::Person, &name_kr.to_uppercase()).t(" hwanjanim. ");
    }
    let d = recent(r);
    b.l(Kind::Date, &format!("{}nyeon {}wol {}il", d.y, d.m, d.d))
        .t(" ")
        .t(&time(r))
        .t("-e Dr. Sung-min Yoo yeyak-i isseumnida. ");
    b.t("saengnyeonworil: ")
        .date(birth(r), r.pick(&[2, 0]))
        .t(". ");
    match r.below(3) {
        0 => {
            b.t("byeongwon deungnok beonho ")
                .l(Kind::Mrn, &mrn(r))
                .t(". ");
        }
        1 => {
            b.t("bohoja ")
                .name(&pat_tagged(r, 'k'), Nf::Given)
                .t("-ssi yeollakcheo ")
                .l(Kind::Phone, &phone(r))
                .t(". ");
        }
        _ => {
            let age = r.range(90, 99);
            b.t("abeonim-eun ")
                .age(age, &format!("{age}-se"))
                .t("isimnida. ");
        }
    }
    b.t("byeongyeong: ")
        .l(Kind::Phone, &phone(r))
        .t(" (Kiri Tane)\n");
    b.t("Reply: ne, ")
        .l(Kind::Person, &p.given.to_lowercase())
        .t(" gamsahamnida. geumyoil-eun an dwaeyo.\n");
    b
}

fn yoruba(r: &mut Rng) -> B {
    let mut b = B::default();
    let p = pat_tagged(r, 'y');
    b.t("Ẹ káàárọ̀ Dókítà Adewusi,\n\n");
    b.t("Orúkọ mi ni ")
        .name(&other(r, &p), Nf::Full)
        .t(". Mo ń kọ̀wé nípa ")
        .t(if p.female { "ìyá mi " } else { "bàbá mi " })
        .name(&p, r.pick(&[Nf::Full, Nf::Caps, Nf::Full]))
        .t(". Ọjọ́ ìbí: ")
        .date(old_birth(r), r.pick(&[0, 3, 4]))
        .t(". ");
    let age = r.range(90, 101);
    b.t("Ó")
        .t(" ti di ọmọ ọdún ")
        .age(age, &age.to_string())
        .t(". ");
    b.t("Ìpàdé rẹ̀ ni ")
        .date(recent(r), r.pick(&[3, 4]))
        .t(" ní Quarry Hill Clinic. ");
    match r.below(3) {
        0 => {
            b.t("Nọ́mbà fóònù mi: ").l(Kind::Phone, &phone(r)).t(". ");
        }
        1 => {
            b.t("Nọ́mbà ìdánimọ̀ ilé-ìwòsàn: ")
                .l(Kind::Mrn, &mrn(r))
                .t(". ");
        }
        _ => {
            b.t("Àdírẹ́sì: ");
            address(&mut b, r, ", ");
            b.t(". ");
        }
    }
    b.t("Ó ń lo ")
        .t(r.pick(DRUGS))
        .t(" lójoojúmọ́.\n\nẸ ṣé púpọ̀,\n")
        .name(&p, Nf::Nick)
        .t(" ni wọ́n ń pè é nílé.\n");
    b
}

// ---------------------------------------------------------------------------------------------

fn family_doc(r: &mut Rng, i: usize) -> B {
    match i {
        0 => referral(r),
        1 => consult(r),
        2 => hl7adt(r),
        3 => hl7oru(r),
        4 => hl7siu(r),
        5 => hl7mdmdft(r),
        6 => voicemail(r),
        7 => schedchat(r),
        8 => billing(r),
        9 => collect(r),
        10 => attach(r),
        11 => subjects(r),
        12 => forward(r),
        13 => portal(r),
        14 => refill(r),
        15 => priorauth(r),
        16 => discharge(r),
        17 => soap(r),
        18 => intake(r),
        19 => dental(r),
        20 => optometry(r),
        21 => physio(r),
        22 => ambulance(r),
        23 => pharmsms(r),
        24 => interpret(r),
        25 => german(r),
        26 => korean(r),
        _ => yoruba(r),
    }
}

/// `n` documents, family by family in turn, from `seed`.
pub fn generate(seed: u64, n: usize) -> Set {
    let mut r = Rng(seed);
    let docs = (0..n)
        .map(|i| {
            let f = i % FAMILIES.len();
            family_doc(&mut r, f).done(FAMILIES[f])
        })
        .collect();
    let roster = POOL
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 3 == 0)
        .map(|(_, p)| format!("{} {}", p.0, p.2))
        .collect();
    Set {
        docs,
        roster,
        keep: KEEP.iter().map(|s| s.to_string()).collect(),
    }
}
