//! The eleventh blind set's generator: a seeded, deterministic set of clinic documents, each
//! with byte-exact labels of every identifier of a patient or their household. Half of the
//! families are the everyday genres of a clinic's mail, written fresh; the other half are
//! genres and languages no earlier set used. Written without reading the redactor's rules, its
//! word lists or the other sets' generators. Conventions: every phone and fax number and every
//! day-precision date is labelled (a month and year alone is not), ages only from 90, a room,
//! bed or dialysis chair by its number; staff, the practice, its sites and payers are in the
//! keep list and never labelled; codes (NPI, CPT, ICD-10, NDC, LOINC, lot, group, order and
//! trial subject numbers) are lookalikes and stay.

use opsdesk::governance::redact::Kind::{
    self, Account, Address, Age, Card, Date, Device, Email, Fax, HealthPlan, Ip, License, Mrn,
    Person, Phone, Room, Ssn, Url, Vehicle, Zip,
};

use crate::redaction_harness::{Doc, Label, Set};

pub const FAMILIES: [&str; 24] = [
    "referral",
    "hl7feed",
    "voicemail",
    "schedchat",
    "billing",
    "attachname",
    "fwdthread",
    "portalmsg",
    "refillfax",
    "priorauth",
    "discharge",
    "soapnote",
    "courier",
    "disability",
    "campform",
    "aecrf",
    "inscard",
    "runsheet",
    "sleeprpt",
    "chairsched",
    "wcfroi",
    "somali",
    "greek",
    "punjabi",
];

/// splitmix64: small, deterministic, no crate.
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
    fn chance(&mut self, pct: usize) -> bool {
        self.below(100) < pct
    }
    fn digits(&mut self, n: usize) -> String {
        (0..n)
            .map(|i| {
                let d = if i == 0 {
                    1 + self.below(9)
                } else {
                    self.below(10)
                };
                char::from(b'0' + d as u8)
            })
            .collect()
    }
    fn s(&mut self, xs: &[&'static str]) -> &'static str {
        xs[self.below(xs.len())]
    }
    fn letters(&mut self, n: usize) -> String {
        const L: &[u8] = b"ABCDEFGHJKLMNPRSTUVWXYZ";
        (0..n).map(|_| char::from(L[self.below(L.len())])).collect()
    }
}

/// A document being written: plain text and labelled pieces.
#[derive(Default)]
struct B {
    s: String,
    labels: Vec<Label>,
}

impl B {
    fn t(&mut self, x: &str) -> &mut B {
        self.s.push_str(x);
        self
    }
    fn k(&mut self, kind: Kind, x: &str) -> &mut B {
        let start = self.s.len();
        self.s.push_str(x);
        self.labels.push(Label {
            start,
            end: self.s.len(),
            kind,
        });
        self
    }
    fn p(&mut self, x: &str) -> &mut B {
        self.k(Person, x)
    }
}

#[derive(Clone, Copy)]
struct Pt {
    first: &'static str,
    middle: &'static str,
    last: &'static str,
    nick: &'static str,
    female: bool,
}

/// (first, middle, last, nickname, female)
const PATIENTS: &[(&str, &str, &str, &str, bool)] = &[
    ("Hồng Nhung", "", "Trương", "Nhung", true),
    ("Quang Vinh", "", "Đặng", "Vinh", false),
    ("Bao Chau", "", "Huynh", "Chau", true),
    ("Minh Tuan", "", "Luu", "Tuan", false),
    ("Seo-yeon", "", "Bae", "", true),
    ("Dong-hyun", "", "Ryu", "", false),
    ("Ha-eun", "", "Seong", "", true),
    ("Pa Nhia", "", "Vue", "Nhia", true),
    ("Tou Fue", "", "Khang", "Fue", false),
    ("Mai Chou", "", "Thao", "", true),
    ("Xeng", "", "Lor", "", false),
    ("Ubah", "Cali", "Jama", "", true),
    ("Abdirizak", "", "Guled", "Rizak", false),
    ("Sagal", "", "Hirsi", "", true),
    ("Mowlid", "", "Egal", "", false),
    ("Marjorie", "", "Desrosiers", "Jojo", true),
    ("Wisly", "", "Théodore", "", false),
    ("Nadège", "", "Pierre-Louis", "", true),
    ("Fritznel", "", "Augustin", "Fritz", false),
    ("Stavroula", "", "Kanellopoulou", "Voula", true),
    ("Panagiotis", "", "Drakos", "Takis", false),
    ("Anastasia", "", "Vlachou", "Tasia", true),
    ("Bożena", "", "Szczepańska", "", true),
    ("Zbigniew", "", "Jędrzejczak", "Zbyszek", false),
    ("Agnieszka", "Maria", "Kołodziej", "Aga", true),
    ("Oluwaseun", "", "Adebayo-Cole", "Seun", false),
    ("Temitope", "", "Olaniyan", "Tope", true),
    ("Babatunde", "", "Ogundipe", "Tunde", false),
    ("Avital", "", "Ben-Haim", "Tali", true),
    ("Yehuda", "", "Rosenzweig", "", false),
    ("Shira", "", "Abergel", "", true),
    ("Winona", "", "Yazzie", "", true),
    ("Dakota", "", "Tsinajinnie", "", false),
    ("Tallulah", "", "Runningwater", "Lula", true),
    ("Elan", "", "Whitehorse", "", false),
    ("Sione", "", "Taufa", "", false),
    ("Leilani", "", "Kealoha", "Lani", true),
    ("Malakai", "", "Vaipulu", "Kai", false),
    ("Salote", "", "Fifita", "", true),
    ("Yupanqui", "", "Quispe", "", false),
    ("Killa", "", "Mamani", "", true),
    ("Rosa Amelia", "", "Huamán Ccori", "", true),
    ("Gurpreet", "", "Kaur Sandhu", "Preeti", true),
    ("Harjinder", "", "Singh Gill", "Harry", false),
    ("Manpreet", "", "Dhaliwal", "", true),
    ("Sunita", "", "Chaturvedi", "", true),
    ("Rakesh", "", "Bhandari", "", false),
    ("Faith", "", "Sparrow", "", true),
    ("Sterling", "", "Lake", "", false),
    ("Dawn", "", "Marsh", "", true),
    ("Rusty", "", "Carpenter", "", false),
    ("Honey", "", "Bell", "", true),
    ("Forrest", "", "Gardner", "", false),
    ("Ivy", "", "Stone", "", true),
    ("Gene", "", "Fisher", "", false),
    ("Autumn", "", "Brooks", "", true),
    ("Major", "", "Price", "", false),
    ("Precious", "", "Temple", "", true),
    ("Royal", "", "Banks", "", false),
    ("Cornelius", "Jasper", "Abernethy", "Neil", false),
    ("Margarethe", "", "Lindqvist", "Greta", true),
    ("Theophilus", "", "Mbeki-Ward", "Theo", false),
    ("Bernadette", "", "O'Shaughnessy", "Bernie", true),
    ("Lachlan", "", "MacAulay", "", false),
    ("Kalani", "", "Akana", "", true),
    ("Ifeoma", "", "Nwachukwu", "Ify", true),
    ("Chidi", "", "Okonkwo-Harris", "", false),
    ("Mercedes", "", "Villalobos Ruiz", "Meche", true),
    ("Tomás", "", "Echeverría", "Tomi", false),
    ("Zainab", "", "Al-Khatib", "", true),
    ("Farrukh", "", "Tashkentov", "", false),
    ("Ngozi", "", "Eze", "", true),
    ("Kwabena", "", "Asante", "Kobby", false),
    ("Dagny", "", "Halvorsen", "", true),
    ("Evander", "", "Quigley", "Van", false),
    ("Hiroko", "", "Matsumura", "", true),
    ("Kenji", "", "Sakamoto", "", false),
    ("Li Na", "", "Xu", "", true),
    ("Jianguo", "", "Pan", "", false),
    ("Aroha", "", "Ngata", "", true),
    ("Esperanza", "", "Choque", "", true),
    ("Wilhelmina", "", "de Groot", "Mina", true),
    ("Reuben", "", "Ashkenazi", "", false),
    ("Oksana", "", "Hrytsenko", "", true),
    ("Dmitri", "", "Volkonsky", "Dima", false),
    ("Tupac", "", "Condori", "", false),
    ("Asha", "", "Rangarajan", "", true),
    ("Naveen", "", "Kothari", "", false),
    ("Lucinda", "Mae", "Pettigrew", "Lucy", true),
    ("Clement", "", "Fairweather", "Clem", false),
    ("Ottilie", "", "Brandstetter", "Tilly", true),
    ("Jubal", "", "Whitlock", "", false),
    ("Ysabel", "", "Marroquín", "Chabela", true),
    ("Kamau", "", "Njoroge", "", false),
    ("Hawa", "", "Abdullahi", "", true),
    ("Benedikt", "", "Ostrowski", "Ben", false),
    ("Magnolia", "", "Greer", "Maggie", true),
];

const GREEK_SCRIPT: &[(&str, &str)] = &[
    ("Ελευθερία", "Παπαδάκη"),
    ("Γιώργος", "Μαυρίδης"),
    ("Χρυσούλα", "Λαμπράκη"),
    ("Σπύρος", "Κατσαρός"),
    ("Δέσποινα", "Ζαχαρίου"),
    ("Θανάσης", "Ρήγας"),
];

const RELATIVES: &[&str] = &[
    "Adaeze",
    "Bich Ngoc",
    "Cyprien",
    "Dolores",
    "Eitan",
    "Faisal",
    "Gintaras",
    "Hamza",
    "Ilse",
    "Jomo",
    "Kalolaine",
    "Lwazi",
    "Marisol",
    "Niamh",
    "Osei",
    "Pania",
    "Qadira",
    "Rivka",
    "Sefo",
    "Thandiwe",
    "Ulises",
    "Vesna",
    "Wanjiru",
    "Xochitl",
    "Yerlan",
    "Zofia",
    "Lily",
    "Hope",
    "Will",
    "Rose",
    "Sonny",
    "Pearl",
];

const STAFF: &[&str] = &[
    "Imogen Faraday",
    "Tobiah Wrenn",
    "Priyanka Venkataraman",
    "Desmond Achterberg",
    "Colette Marchetti",
    "Ruairi Dunleavy",
    "Marguerite Oyelaran",
    "Henrik Solvang",
];
const STAFF_SHORT: &[&str] = &["immy", "toby", "pree", "des", "coco", "ro", "margo", "henk"];

const PLACES: &[&str] = &[
    "Halloway Creek Family Medicine",
    "Halloway Creek Dialysis Center",
    "Bellmere Sleep Lab",
    "Tidewater Health Plan",
    "Keystone Mutual",
    "Granite State Casualty",
    "Larkspur Pharmacy",
    "Pinecrest Reference Lab",
    "Camp Wapiti Ridge",
    "Northfork EMS",
    "Sorrell Orthopedics",
];

const STREETS: &[&str] = &[
    "Quillan Ridge Rd",
    "Tamarack Hollow Ln",
    "Osage Bend Dr",
    "Fernhill Circle",
    "Kapiolani Mauka Pl",
    "Wolcott Mill Road",
    "Birchbark Trail",
    "Umber Crest Ave",
    "Saltmarsh Way",
    "Harrowgate St",
    "Pemberton Bluff Rd",
    "Cottonwood Draw",
    "Kestrel Run Ct",
    "Marigold Terrace",
    "N Sorrento Blvd",
];
const UNITS: &[&str] = &[
    "", "", " Apt 3B", " Unit 12", " #207", " Lot 44", " Trlr 9", " Fl 2",
];
const CITIES: &[&str] = &[
    "Ashmont Falls",
    "Quarry Hill",
    "Osceola Junction",
    "Whitlow",
    "Tenmile Creek",
    "Bayard Flats",
    "Kilgore Mills",
    "Lower Pemaquid",
    "Sable Point",
    "New Trondheim",
];
const STATES: &[&str] = &["OR", "ME", "MN", "NM", "HI", "KS", "GA", "VT", "WA", "OH"];
const AREAS: &[&str] = &[
    "207", "320", "505", "808", "316", "478", "802", "360", "419", "651",
];
const DOMAINS: &[&str] = &[
    "kestrelmail.com",
    "pobox.net",
    "outlook.com",
    "yahoo.com",
    "gmail.com",
    "icloud.com",
    "fastmail.fm",
    "comcast.net",
];
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
    "",
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
const CPT: &[&str] = &[
    "99214", "93000", "95810", "92557", "90834", "97110", "36415", "99497",
];
const ICD: &[&str] = &[
    "E11.65", "G47.33", "I10", "N18.6", "H90.3", "M54.50", "J44.1", "F41.1",
];
const DRUGS: &[&str] = &[
    "metformin 1000 mg",
    "lisinopril 20 mg",
    "sertraline 50 mg",
    "apixaban 5 mg",
    "levothyroxine 88 mcg",
    "tamsulosin 0.4 mg",
    "gabapentin 300 mg",
    "atorvastatin 40 mg",
];

fn pt(r: &mut Rng) -> Pt {
    let &(first, middle, last, nick, female) = r.pick(PATIENTS);
    Pt {
        first,
        middle,
        last,
        nick,
        female,
    }
}

fn initial(s: &str) -> String {
    s.chars().next().unwrap().to_string()
}

fn words(n: u32) -> String {
    if n < 20 {
        ONES[n as usize].to_string()
    } else if n.is_multiple_of(10) {
        TENS[(n / 10) as usize].to_string()
    } else {
        format!("{} {}", TENS[(n / 10) as usize], ONES[(n % 10) as usize])
    }
}

fn ordinal(n: u32) -> String {
    if n < 20 {
        ORD[n as usize].to_string()
    } else if n == 20 {
        "twentieth".into()
    } else if n == 30 {
        "thirtieth".into()
    } else {
        format!("{} {}", TENS[(n / 10) as usize], ORD[(n % 10) as usize])
    }
}

fn year_words(y: u32) -> String {
    if y >= 2000 {
        if y == 2000 {
            "two thousand".into()
        } else if y < 2010 {
            format!("two thousand {}", ONES[(y - 2000) as usize])
        } else {
            format!("twenty {}", words(y - 2000))
        }
    } else {
        let lo = y % 100;
        let hi = words(y / 100);
        if lo == 0 {
            format!("{hi} hundred")
        } else if lo < 10 {
            format!("{hi} oh {}", ONES[lo as usize])
        } else {
            format!("{hi} {}", words(lo))
        }
    }
}

fn digit_words(r: &mut Rng, s: &str) -> String {
    let zero = if r.chance(50) { "oh" } else { "zero" };
    s.chars()
        .filter(|c| c.is_ascii_digit())
        .map(|c| {
            let d = c.to_digit(10).unwrap() as usize;
            if d == 0 { zero } else { ONES[d] }
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

fn dob(r: &mut Rng) -> D {
    D {
        y: r.range(1929, 2019),
        m: r.range(1, 12),
        d: r.range(1, 28),
    }
}

fn recent(r: &mut Rng) -> D {
    D {
        y: r.range(2025, 2026),
        m: r.range(1, 12),
        d: r.range(1, 28),
    }
}

/// A written form of a date; `style` picks one (0..=9).
fn ds(d: D, style: usize) -> String {
    let mon = MONTHS[(d.m - 1) as usize];
    let ab = &mon[..3];
    match style % 10 {
        0 => format!("{:02}/{:02}/{}", d.m, d.d, d.y),
        1 => format!("{}/{}/{:02}", d.m, d.d, d.y % 100),
        2 => format!("{}-{:02}-{:02}", d.y, d.m, d.d),
        3 => format!("{mon} {}, {}", d.d, d.y),
        4 => format!("{} {ab} {}", d.d, d.y),
        5 => format!("{:02}-{}-{}", d.d, ab.to_uppercase(), d.y),
        6 => format!("{ab}. {}, {}", d.d, d.y),
        7 => format!("{:02}.{:02}.{}", d.d, d.m, d.y),
        8 => format!("{}/{}/{}", d.m, d.d, d.y),
        _ => format!("{}{:02}{:02}", d.y, d.m, d.d),
    }
}

fn date_words(d: D) -> String {
    format!(
        "{} {} {}",
        MONTHS[(d.m - 1) as usize].to_lowercase(),
        ordinal(d.d),
        year_words(d.y)
    )
}

fn phone_parts(r: &mut Rng) -> (String, String, String) {
    (
        r.s(AREAS).to_string(),
        r.range(201, 989).to_string(),
        format!("{:04}", r.range(0, 9999)),
    )
}

fn phone(r: &mut Rng) -> String {
    let (a, e, l) = phone_parts(r);
    match r.below(7) {
        0 => format!("({a}) {e}-{l}"),
        1 => format!("{a}-{e}-{l}"),
        2 => format!("{a}.{e}.{l}"),
        3 => format!("+1 {a} {e} {l}"),
        4 => format!("{a}{e}{l}"),
        5 => format!("1-{a}-{e}-{l}"),
        _ => format!("({a}){e}-{l}"),
    }
}

fn street(r: &mut Rng) -> String {
    format!("{} {}{}", r.range(12, 9870), r.s(STREETS), r.s(UNITS))
}

fn zip(r: &mut Rng) -> String {
    if r.chance(30) {
        format!("{:05}-{:04}", r.range(1001, 99950), r.range(1, 9999))
    } else {
        format!("{:05}", r.range(1001, 99950))
    }
}

fn mrn(r: &mut Rng) -> String {
    match r.below(5) {
        0 => r.digits(7),
        1 => format!("HC{}", r.digits(6)),
        2 => format!("00{}", r.digits(8)),
        3 => format!("{}-{}-{}", r.digits(2), r.digits(3), r.digits(4)),
        _ => format!("E{}", r.digits(8)),
    }
}

fn member(r: &mut Rng) -> String {
    match r.below(4) {
        0 => format!("TWH{}", r.digits(9)),
        1 => format!("KM-{}-01", r.digits(8)),
        2 => format!("{}{}", r.letters(2), r.digits(10)),
        _ => format!("W{}", r.digits(9)),
    }
}

fn account(r: &mut Rng) -> String {
    match r.below(4) {
        0 => format!("A{}", r.digits(8)),
        1 => format!("{}-{}-{}", r.digits(4), r.digits(4), r.digits(2)),
        2 => r.digits(10),
        _ => format!("G{}-{}", r.digits(6), r.digits(3)),
    }
}

fn ssn(r: &mut Rng) -> String {
    let (a, b, c) = (r.range(101, 665), r.range(10, 99), r.range(1000, 9999));
    if r.chance(75) {
        format!("{a}-{b}-{c}")
    } else {
        format!("{a} {b} {c}")
    }
}

fn card(r: &mut Rng) -> String {
    let mut ds: Vec<u32> = vec![4];
    for _ in 0..14 {
        ds.push(r.range(0, 9));
    }
    // Luhn check digit over the 15 digits.
    let sum: u32 = ds
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| {
            if i % 2 == 0 {
                let x = d * 2;
                if x > 9 { x - 9 } else { x }
            } else {
                d
            }
        })
        .sum();
    ds.push((10 - sum % 10) % 10);
    let s: String = ds.iter().map(|d| char::from(b'0' + *d as u8)).collect();
    if r.chance(60) {
        format!("{} {} {} {}", &s[..4], &s[4..8], &s[8..12], &s[12..])
    } else {
        s
    }
}

fn npi(r: &mut Rng) -> String {
    format!("1{}", r.digits(9))
}

fn email(r: &mut Rng, p: &Pt, y: u32) -> String {
    let f = p.first.split([' ', '-']).next().unwrap();
    let f = fold(f).to_lowercase();
    let l = fold(&p.last.replace([' ', '\''], "")).to_lowercase();
    let local = match r.below(5) {
        0 => format!("{f}.{l}"),
        1 => format!("{}{l}{}", initial(&f), y % 100),
        2 => format!("{l}_{f}"),
        3 => format!("{f}{}", r.range(1, 999)),
        _ => format!("{l}.{}{}", initial(&f), r.range(10, 99)),
    };
    format!("{local}@{}", r.s(DOMAINS))
}

/// Diacritics off, for e-mail local parts.
fn fold(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'á' | 'à' | 'ạ' | 'ă' | 'â' => 'a',
            'é' | 'è' | 'ê' | 'ę' => 'e',
            'í' | 'ì' => 'i',
            'ó' | 'ò' | 'ô' | 'ơ' | 'ồ' => 'o',
            'ú' | 'ù' | 'ư' => 'u',
            'ż' | 'ź' => 'z',
            'ń' => 'n',
            'ł' => 'l',
            'Đ' => 'D',
            'đ' => 'd',
            'Ł' => 'L',
            'ś' => 's',
            'ć' => 'c',
            'ặ' => 'a',
            c => c,
        })
        .filter(|c| c.is_ascii())
        .collect()
}

/// The patient's name in one of many written forms, each token labelled.
fn name(r: &mut Rng, b: &mut B, p: &Pt) {
    match r.below(9) {
        0 | 1 => {
            b.p(&format!("{} {}", p.first, p.last));
        }
        2 => {
            b.p(p.last).t(", ").p(p.first);
        }
        3 => {
            b.p(&p.last.to_uppercase())
                .t(", ")
                .p(&p.first.to_uppercase());
        }
        4 => {
            b.p(&format!("{} {}", p.first, p.last).to_lowercase());
        }
        5 if !p.middle.is_empty() => {
            b.p(p.first).t(" ").p(&initial(p.middle)).t(". ").p(p.last);
        }
        6 => {
            b.p(&format!("{} {}", p.first, p.last).to_uppercase());
        }
        7 => {
            b.t(if p.female { "Ms. " } else { "Mr. " }).p(p.last);
        }
        _ => {
            b.p(&format!("{} {}", p.first, p.last));
        }
    }
}

fn short(p: &Pt) -> &'static str {
    if p.nick.is_empty() { p.first } else { p.nick }
}

fn rel(r: &mut Rng, p: &Pt) -> String {
    format!("{} {}", r.s(RELATIVES), p.last)
}

fn staff(r: &mut Rng) -> &'static str {
    r.s(STAFF)
}

fn staff_last(r: &mut Rng) -> &'static str {
    r.s(STAFF).rsplit(' ').next().unwrap()
}

fn addr_block(r: &mut Rng, b: &mut B) {
    let st = street(r);
    let city = r.s(CITIES).to_string();
    let state = r.s(STATES).to_string();
    let z = zip(r);
    b.k(Address, &st)
        .t(", ")
        .k(Address, &city)
        .t(&format!(", {state} "))
        .k(Zip, &z);
}

fn dob_label(r: &mut Rng) -> &'static str {
    r.s(&[
        "DOB: ",
        "DOB ",
        "D.O.B. ",
        "Date of birth: ",
        "Birthdate ",
        "born ",
        "DOB/",
    ])
}

fn mrn_label(r: &mut Rng) -> &'static str {
    r.s(&[
        "MRN: ",
        "MRN ",
        "Med Rec #",
        "Chart # ",
        "Pt ID: ",
        "Medical record no. ",
        "EHR# ",
        "HCFM MRN ",
    ])
}

fn plan_label(r: &mut Rng) -> &'static str {
    r.s(&[
        "Member ID: ",
        "Subscriber ID ",
        "Ins ID # ",
        "Medicaid # ",
        "Policy no. ",
        "Mbr# ",
    ])
}

fn acct_label(r: &mut Rng) -> &'static str {
    r.s(&[
        "Acct #",
        "Account No. ",
        "Guarantor acct ",
        "Billing account: ",
        "Pt acct ",
        "Account number ",
    ])
}

fn old_age(r: &mut Rng) -> String {
    r.range(90, 104).to_string()
}

// ---------------------------------------------------------------- everyday genres

fn referral_a(r: &mut Rng, b: &mut B) {
    let p = pt(r);
    let doc = staff(r);
    b.t("HALLOWAY CREEK FAMILY MEDICINE\n2200 Commons Pkwy, Suite 310 | Tel ")
        .k(Phone, &phone(r))
        .t(" | Fax ")
        .k(Fax, &phone(r))
        .t("\n\n");
    b.k(Date, &ds(recent(r), r.range(0, 8) as usize)).t("\n\n");
    b.t(&format!(
        "Dr. {}\n{}\n\n",
        staff(r),
        r.s(&[
            "Bellmere Sleep Lab",
            "Pinecrest Reference Lab",
            "Sorrell Orthopedics"
        ])
    ));
    b.t("Re: ");
    name(r, b, &p);
    b.t(if r.chance(50) { " | " } else { ", " });
    b.t(dob_label(r))
        .k(Date, &ds(dob(r), r.range(0, 8) as usize));
    b.t(" | ").t(mrn_label(r)).k(Mrn, &mrn(r)).t("\n\n");
    b.t(&format!(
        "Dear Dr. {},\n\nThank you for seeing ",
        staff_last(r)
    ));
    if r.chance(50) {
        b.t(if p.female { "Mrs. " } else { "Mr. " }).p(p.last);
    } else {
        b.p(p.first);
    }
    if r.chance(40) {
        b.t(", a ").k(Age, &old_age(r)).t("-year-old");
    } else {
        b.t(&format!(", a {}-year-old", r.range(19, 84)));
    }
    b.t(&format!(
        " {} with {} ({}), for evaluation. {} was last seen here on ",
        if p.female { "woman" } else { "man" },
        r.s(&[
            "poorly controlled diabetes",
            "daytime somnolence",
            "CKD stage 4",
            "bilateral hearing loss"
        ]),
        r.s(ICD),
        if p.female { "She" } else { "He" }
    ));
    b.k(Date, &ds(recent(r), 3)).t(". ");
    if r.chance(60) {
        b.t("The best number to reach the patient is ")
            .k(Phone, &phone(r))
            .t("; home address ");
        addr_block(r, b);
        b.t(". ");
    }
    b.t("Insurance: Tidewater Health Plan, ")
        .t(plan_label(r))
        .k(HealthPlan, &member(r))
        .t(".\n\n");
    b.t("Sincerely,\n\n")
        .t(doc)
        .t(", MD\nNPI ")
        .t(&npi(r))
        .t("\n\ncc: ");
    let relname = rel(r, &p);
    b.t(&format!("Dr. {}; ", staff(r))).p(&relname).t(&format!(
        " ({}), ",
        r.s(&["daughter", "son", "spouse", "HCPOA"])
    ));
    b.k(Email, &email(r, &p, 1970)).t("\n");
}

fn hl7name(r: &mut Rng, b: &mut B, p: &Pt) {
    b.p(&p.last.to_uppercase())
        .t("^")
        .p(&p.first.to_uppercase());
    if !p.middle.is_empty() {
        b.t("^").p(&initial(p.middle));
    } else {
        b.t("^");
    }
    if r.chance(20) {
        b.t(r.s(&["^JR", "^III", "^SR", "^II"]));
    }
}

fn hl7feed(r: &mut Rng, b: &mut B) {
    let p = pt(r);
    let (typ, ev) = *r.pick(&[
        ("ADT", "A01"),
        ("ADT", "A03"),
        ("ADT", "A08"),
        ("ORU", "R01"),
        ("SIU", "S12"),
        ("DFT", "P03"),
        ("MDM", "T02"),
    ]);
    let nl = if r.chance(50) { "\r" } else { "\n" };
    let ts = recent(r);
    b.t("MSH|^~\\&|HCFM_EHR|HALLOWAY|LAB|PINECREST|")
        .k(Date, &format!("{}{:02}{:02}", ts.y, ts.m, ts.d))
        .t(&format!(
            "{:02}{:02}||{typ}^{ev}|MSG{}|P|2.5.1{nl}",
            r.range(0, 23),
            r.range(0, 59),
            r.digits(8)
        ));
    b.t(&format!("EVN|{ev}|"))
        .k(Date, &ds(ts, 9))
        .t(&format!("0915{nl}"));
    b.t("PID|1||").k(Mrn, &r.digits(7)).t("^^^HCFM^MR");
    if r.chance(40) {
        b.t("~")
            .k(Ssn, &format!("{}{}", r.range(101, 665), r.digits(6)))
            .t("^^^SSA^SS");
    }
    b.t("||");
    hl7name(r, b, &p);
    b.t("||")
        .k(Date, &ds(dob(r), 9))
        .t(if p.female { "|F|||" } else { "|M|||" });
    b.k(Address, &street(r).to_uppercase()).t("^^");
    b.k(Address, &r.s(CITIES).to_uppercase())
        .t(&format!("^{}^", r.s(STATES)));
    b.k(Zip, &format!("{:05}", r.range(1001, 99950))).t("||");
    let (a, e, l) = phone_parts(r);
    b.k(Phone, &format!("({a}){e}-{l}"));
    if r.chance(40) {
        let (a, e, l) = phone_parts(r);
        b.t("~^PRN^CP^^1^").k(Phone, &format!("{a}^{e}{l}"));
    }
    b.t("|||||").k(Account, &r.digits(9)).t(nl);
    if r.chance(70) {
        let rn = r.s(RELATIVES).to_uppercase();
        b.t("NK1|1|").p(&p.last.to_uppercase()).t("^").p(&rn);
        b.t(&format!(
            "|{}|",
            r.s(&["DAU^Daughter", "SON^Son", "SPO^Spouse", "MTH^Mother"])
        ));
        b.k(Phone, &phone(r)).t(nl);
    }
    if typ == "ADT" || typ == "DFT" {
        let room = r.range(200, 749).to_string();
        b.t(&format!("PV1|1|I|{}^", r.s(&["4W", "ICU", "MED2", "TELE"])))
            .k(Room, &room)
            .t(&format!(
                "^{}^HALLOWAY||||{}^{}^{}|||||||||||",
                r.s(&["A", "B", "1", "2"]),
                r.digits(6),
                staff_last(r).to_uppercase(),
                "MD"
            ))
            .k(Account, &format!("V{}", r.digits(8)))
            .t("||||||||||||||||||||||||")
            .k(Date, &format!("{}{:02}{:02}", ts.y, ts.m, ts.d))
            .t(&format!("0730{nl}"));
        b.t("IN1|1|TWHPPO|TWH01|TIDEWATER HEALTH PLAN|PO BOX 7710^^")
            .t("HARTWELL^OR^97011||||||||||");
        hl7name(r, b, &p);
        b.t("|SEL|")
            .k(Date, &ds(dob(r), 9))
            .t("||||||||||||||||||")
            .k(HealthPlan, &member(r))
            .t(nl);
        if r.chance(60) {
            b.t("GT1|1||");
            let g = r.s(RELATIVES).to_uppercase();
            b.p(&p.last.to_uppercase()).t("^").p(&g).t("||");
            b.k(Address, &street(r).to_uppercase())
                .t("^^")
                .k(Address, &r.s(CITIES).to_uppercase())
                .t("^WA^");
            b.k(Zip, &format!("{:05}", r.range(1001, 99950)))
                .t("|")
                .k(Phone, &phone(r))
                .t(nl);
        }
    }
    if typ == "DFT" {
        b.t("FT1|1|||").k(Date, &ds(recent(r), 9)).t(&format!(
            "||CG|{}^OFFICE VISIT|||1|||||||||{}{nl}",
            r.s(CPT),
            r.s(ICD)
        ));
    }
    if typ == "ORU" || typ == "MDM" {
        b.t(&format!(
            "OBR|1|ORD{}|{}|2345-7^GLUCOSE^LN|||",
            r.digits(6),
            r.digits(8)
        ))
        .k(Date, &ds(recent(r), 9))
        .t(&format!(
            "1040{nl}OBX|1|NM|2345-7^GLUCOSE^LN||{}|mg/dL|70-99|H|||F{nl}",
            r.range(101, 311)
        ));
        b.t("NTE|1||Result called to pt's ");
        b.t(r.s(&["husband ", "wife ", "daughter ", "caregiver "]));
        b.p(&r.s(RELATIVES).to_uppercase())
            .t(" at ")
            .k(Phone, &phone(r))
            .t(" \\T\\ verified ");
        b.t("DOB ").k(Date, &ds(dob(r), 0)).t(nl);
    }
    if typ == "SIU" {
        b.t(&format!(
            "SCH|{}||||||FOLLOWUP^Follow-up|30|MIN|^^30^",
            r.digits(7)
        ))
        .k(Date, &ds(recent(r), 9))
        .t(&format!(
            "1330{nl}AIP|1||{}^{}^{}|{nl}",
            r.digits(6),
            staff_last(r).to_uppercase(),
            "NP"
        ));
    }
    if typ == "MDM" {
        b.t("TXA|1|DS|TX|")
            .k(Date, &ds(recent(r), 9))
            .t(&format!("|||||||DOC{}||||AU{nl}", r.digits(6)));
        b.t("OBX|2|TX|||Patient ")
            .p(&format!("{} {}", p.first, p.last))
            .t(" seen with her son \\T\\ daughter; age ");
        b.k(Age, &old_age(r)).t(nl);
    }
}

fn voicemail_a(r: &mut Rng, b: &mut B) {
    let p = pt(r);
    let d = dob(r);
    let intro = r.s(&[
        "hi this is ",
        "hey um yeah my name is ",
        "good morning it's ",
        "hello this message is for the nurse this is ",
        "hi uh calling for my mom her name is ",
    ]);
    b.t("[voicemail transcript ");
    b.t(&format!("{}:{:02}]\n", r.range(0, 3), r.range(0, 59)));
    b.t(intro);
    if r.chance(50) {
        b.p(&format!("{} {}", p.first, p.last).to_lowercase());
    } else {
        b.p(&p.first.to_lowercase())
            .t(" ")
            .p(&p.last.to_lowercase());
    }
    b.t(r.s(&[
        " and my date of birth is ",
        " um date of birth ",
        " birthday is ",
        " she was born ",
    ]));
    b.k(Date, &date_words(d));
    let (a, e, l) = phone_parts(r);
    let ph = digit_words(r, &format!("{a}{e}{l}"));
    b.t(r.s(&[
        " i'm calling about my refill of the ",
        " um calling because i got a bill for the ",
        " i need to reschedule the ",
        " the pharmacy said they never got the ",
    ]));
    b.t(r.s(&[
        "blood pressure pills",
        "sleep study",
        "ultrasound",
        "insulin pens",
        "hearing test",
    ]));
    if r.chance(40) {
        let chart = r.digits(7);
        b.t(" my chart number is ").k(Mrn, &digit_words(r, &chart));
    }
    if r.chance(30) {
        b.t(" i'm ")
            .k(Age, &words(r.range(90, 99)))
            .t(" years old so please speak up");
    }
    b.t(r.s(&[
        " call me back at ",
        " you can reach me at ",
        " my number is ",
        " best number is my cell ",
    ]));
    b.k(Phone, &ph);
    if r.chance(50) {
        b.t(" or my daughter ")
            .p(&r.s(RELATIVES).to_lowercase())
            .t(" at ");
        let (a, e, l) = phone_parts(r);
        b.k(Phone, &digit_words(r, &format!("{a}{e}{l}")));
    }
    if r.chance(40) {
        b.t(" the appointment was on ").k(
            Date,
            &format!(
                "{} {}",
                MONTHS[r.below(12)].to_lowercase(),
                ordinal(r.range(1, 28))
            ),
        );
    }
    b.t(r.s(&[
        " thanks bye\n",
        " okay thank you\n",
        " um yeah that's it bye bye\n",
    ]));
}

fn schedchat_a(r: &mut Rng, b: &mut B) {
    let p = pt(r);
    let q = pt(r);
    let s1 = r.s(STAFF_SHORT);
    let s2 = r.s(STAFF_SHORT);
    let h = r.range(7, 16);
    b.t(&format!("#front-desk  {h}:{:02}\n", r.range(0, 59)));
    b.t(&format!("{s1}: can we squeeze "))
        .p(&p.last.to_lowercase())
        .t(r.s(&[" in tmrw am? ", " into the 2:30 w/ dr v? ", " b4 lunch? "]));
    b.t("she called twice\n");
    b.t(&format!("{s2}: which one, "))
        .p(&p.first.to_lowercase())
        .t("? dob ")
        .k(Date, &ds(dob(r), 1))
        .t("?\n");
    b.t(&format!("{s1}: ya. cell is "))
        .k(Phone, &phone(r))
        .t("\n");
    b.t(&format!("{s2}: ok moved her to "))
        .k(Date, &ds(recent(r), 1))
        .t(" 10:15. ");
    b.t("also ").p(short(&q)).t(r.s(&[
        " no showed again ",
        " cxl'd ",
        " wants a telehealth instead ",
    ]));
    b.t("- ");
    b.p(&format!("{} {}", q.first, q.last).to_lowercase())
        .t(" ")
        .t(mrn_label(r).to_lowercase().trim_end())
        .t(" ")
        .k(Mrn, &mrn(r))
        .t("\n");
    if r.chance(50) {
        b.t(&format!("{s1}: put him in rm "))
            .k(Room, &r.range(1, 14).to_string())
            .t(" when he gets here, wife ")
            .p(&r.s(RELATIVES).to_lowercase())
            .t(" is driving\n");
    }
    b.t(&format!("{s2}: 👍 next tues works too\n"));
}

fn billing(r: &mut Rng, b: &mut B) {
    let p = pt(r);
    match r.below(3) {
        0 => {
            b.t("HALLOWAY CREEK FAMILY MEDICINE — PATIENT STATEMENT\nStatement date: ")
                .k(Date, &ds(recent(r), 3))
                .t("\nGuarantor: ");
            b.p(&format!("{} {}", p.first, p.last).to_uppercase())
                .t("\n");
            addr_block(r, b);
            b.t("\n").t(acct_label(r)).k(Account, &account(r)).t("\n\n");
            b.t("DOS         CODE   DESCRIPTION          BILLED  INS PAID  YOU OWE\n");
            for _ in 0..r.range(2, 4) {
                b.k(Date, &ds(recent(r), 0)).t(&format!(
                    "  {}  office/procedure     {:>6}.00  {:>6}.00  {:>5}.00\n",
                    r.s(CPT),
                    r.range(90, 900),
                    r.range(40, 600),
                    r.range(0, 150)
                ));
            }
            b.t("Questions? Billing office ")
                .k(Phone, &phone(r))
                .t(" Mon-Fri 8-4.\n");
        }
        1 => {
            b.t("Subject: Payment plan set up — ");
            b.p(p.last)
                .t("\n\nHi ")
                .p(p.first)
                .t(",\n\nYour plan for account ")
                .k(Account, &account(r));
            b.t(&format!(" is ${}/month starting ", r.range(25, 150)))
                .k(Date, &ds(recent(r), 6))
                .t(". We will charge the card you gave us, ")
                .k(Card, &card(r))
                .t(&format!(" exp {:02}/{}, ", r.range(1, 12), r.range(27, 31)))
                .t("on the 15th. Claim ")
                .k(Account, &format!("CLM{}", r.digits(9)))
                .t(" is still pending with Keystone Mutual (")
                .t(plan_label(r))
                .k(HealthPlan, &member(r))
                .t(").\n\n— Billing, ");
            b.t(staff(r)).t("\n");
        }
        _ => {
            b.t("FINAL NOTICE — ACCOUNT REFERRED TO COLLECTIONS\n\n");
            b.p(&p.first.to_uppercase()).t(" ");
            if !p.middle.is_empty() {
                b.p(&initial(p.middle)).t(" ");
            }
            b.p(&p.last.to_uppercase()).t("\n");
            addr_block(r, b);
            b.t("\n\nRe: balance of $")
                .t(&format!("{}.{:02}", r.range(80, 2400), r.range(0, 99)));
            b.t(" for services on ")
                .k(Date, &ds(recent(r), 4))
                .t(", ")
                .t(acct_label(r))
                .k(Account, &account(r));
            b.t("\nEOB: paid ")
                .k(Date, &ds(recent(r), 0))
                .t(&format!(", CARC CO-45, ICN {} (payer ref)", r.digits(13)));
            b.t("\nLast 4 of SSN on file: ")
                .t(&r.digits(4))
                .t(" (verify only). Full SSN ");
            b.k(Ssn, &ssn(r))
                .t(" needed for payment plan.\nCall ")
                .k(Phone, &phone(r))
                .t(" before ");
            b.k(Date, &ds(recent(r), 3)).t(".\n");
        }
    }
}

fn attachname(r: &mut Rng, b: &mut B) {
    for _ in 0..r.range(2, 3) {
        let p = pt(r);
        let d = dob(r);
        let last = fold(&p.last.replace([' ', '\'', '-'], ""));
        let first = fold(&p.first.replace([' ', '-'], ""));
        match r.below(6) {
            0 => {
                b.t("Attachment: ")
                    .p(&last)
                    .t("_")
                    .p(&first)
                    .t("_DOB")
                    .k(Date, &ds(d, 9))
                    .t("_MRN")
                    .k(Mrn, &r.digits(8))
                    .t(".pdf\n");
            }
            1 => {
                b.t("Subject: ")
                    .k(Date, &ds(recent(r), 2))
                    .t("-LabResults-")
                    .p(&last)
                    .p(&first)
                    .t("-acct")
                    .k(Account, &r.digits(8))
                    .t(".pdf\n");
            }
            2 => {
                b.t("scan.")
                    .p(&last.to_uppercase())
                    .t(".")
                    .p(&first.to_uppercase())
                    .t(".")
                    .k(Date, &ds(d, 7).replace('.', ""))
                    .t(".tif\n");
            }
            3 => {
                b.t("Referral")
                    .p(&last)
                    .t("-")
                    .k(Date, &format!("{}{:02}{:02}", d.y, d.m, d.d))
                    .t("-SSN")
                    .k(Ssn, &format!("{}{}", r.range(101, 665), r.digits(6)))
                    .t(".docx\n");
            }
            4 => {
                b.t("RE: FW: ")
                    .p(&first.to_lowercase())
                    .t("_")
                    .p(&last.to_lowercase())
                    .t("_insurance_card_")
                    .k(HealthPlan, &member(r))
                    .t(".jpg (")
                    .t(&r.range(80, 900).to_string())
                    .t(" KB)\n");
            }
            _ => {
                b.t("Subject: CT read ")
                    .p(&last.to_uppercase())
                    .t(" ")
                    .k(Mrn, &format!("MRN{}", r.digits(7)))
                    .t(" dob ")
                    .k(Date, &ds(d, 1))
                    .t(" — order ORD-")
                    .t(&r.digits(6))
                    .t(" CPT ")
                    .t(r.s(CPT))
                    .t("\n");
            }
        }
    }
    b.t("Sent from the Halloway Creek Family Medicine scanner\n");
}

fn fwdthread_a(r: &mut Rng, b: &mut B) {
    let p = pt(r);
    let d = recent(r);
    let em = email(r, &p, 1980);
    let wd = r.s(&["Mon", "Tue", "Wed", "Thu", "Fri"]);
    b.t("---------- Forwarded message ---------\nFrom: ")
        .p(&format!("{} {}", p.first, p.last))
        .t(" <")
        .k(Email, &em)
        .t(">\nDate: ")
        .t(wd)
        .t(", ")
        .k(
            Date,
            &format!("{} {}, {}", &MONTHS[(d.m - 1) as usize][..3], d.d, d.y),
        )
        .t(&format!(
            " at {}:{:02} PM\n",
            r.range(1, 11),
            r.range(0, 59)
        ))
        .t("Subject: question about my results\nTo: <frontdesk@hallowaycreek.org>\n\n");
    b.t(&format!(
        "{}, can you handle? — {}\n\n",
        staff(r).split(' ').next().unwrap(),
        staff(r)
    ));
    b.t(&format!("On {wd}, "))
        .k(
            Date,
            &format!("{} {}, {}", &MONTHS[(d.m - 1) as usize][..3], d.d, d.y),
        )
        .t(", ")
        .p(&format!("{} {}", p.first, p.last))
        .t(" <")
        .k(Email, &em)
        .t("> wrote:\n");
    b.t("> Hello, I had blood work on ")
        .k(Date, &ds(recent(r), 8))
        .t(" and never heard back.\n");
    b.t("> My birthday is ")
        .k(Date, &ds(dob(r), r.range(0, 6) as usize))
        .t(" if you need it. ");
    b.t("Please call me at ").k(Phone, &phone(r)).t("\n");
    if r.chance(60) {
        b.t(">> On ")
            .k(Date, &ds(recent(r), 2))
            .t(" the portal wrote:\n>> Your message to Dr. ")
            .t(staff_last(r))
            .t(" was received.\n");
    }
    b.t("> Thanks,\n> ").p(short(&p)).t("\n");
}

fn portalmsg_a(r: &mut Rng, b: &mut B) {
    let p = pt(r);
    let m = mrn(r);
    b.t("SECURE MESSAGE  |  Halloway Creek patient portal\nFrom: ");
    name(r, b, &p);
    b.t(" (")
        .t(mrn_label(r))
        .k(Mrn, &m)
        .t(")\nTo: Dr. ")
        .t(staff(r))
        .t("\nSent: ");
    b.k(Date, &ds(recent(r), 0))
        .t(&format!(" {}:{:02}\n", r.range(7, 22), r.range(10, 59)));
    b.t("Login: ").k(
        Ip,
        &format!(
            "{}.{}.{}.{}",
            r.range(24, 223),
            r.range(0, 255),
            r.range(0, 255),
            r.range(1, 254)
        ),
    );
    b.t(" | link ").k(
        Url,
        &format!(
            "https://portal.hallowaycreek.org/msg/view?pid={}&mid={}",
            m.replace('-', ""),
            r.digits(6)
        ),
    );
    b.t("\n\nHi Dr. ").t(staff_last(r)).t(r.s(&[
        ", my new sugar readings are attached. ",
        ", can I take the cough syrup with my ",
        ", I need a letter for work saying I was out ",
    ]));
    if r.chance(50) {
        b.t(r.s(DRUGS)).t("? ");
    }
    b.t("I moved, new address is ");
    addr_block(r, b);
    b.t(" and my cell changed to ").k(Phone, &phone(r)).t(". ");
    if r.chance(50) {
        b.t("My husband ").p(&rel(r, &p)).t(" can pick it up.");
    }
    b.t("\n\n").p(short(&p)).t("\n");
}

fn refillfax(r: &mut Rng, b: &mut B) {
    let p = pt(r);
    b.t("LARKSPUR PHARMACY — REFILL AUTHORIZATION REQUEST\nTO: Dr. ")
        .t(staff(r))
        .t("   FAX: ")
        .k(Fax, &phone(r))
        .t("\nFROM: Larkspur Pharmacy #0447   PH: ")
        .k(Phone, &phone(r))
        .t("   FAX: ")
        .k(Fax, &phone(r))
        .t("\nDate sent: ")
        .k(Date, &ds(recent(r), 0))
        .t("\n\nPATIENT: ");
    b.p(&p.last.to_uppercase())
        .t(", ")
        .p(&p.first.to_uppercase())
        .t("\nDOB: ")
        .k(Date, &ds(dob(r), 0));
    b.t("   PHONE: ").k(Phone, &phone(r)).t("\nADDRESS: ");
    addr_block(r, b);
    b.t("\n\nDRUG: ").t(r.s(DRUGS)).t(&format!(
        "  NDC {}-{}-{}\n",
        r.digits(5),
        r.digits(4),
        r.digits(2)
    ));
    b.t(&format!(
        "SIG: 1 tab po daily   QTY: {}   REFILLS REQ: {}\nLast fill: ",
        r.range(30, 90),
        r.range(1, 5)
    ));
    b.k(Date, &ds(recent(r), 1))
        .t("   Prescriber NPI ")
        .t(&npi(r))
        .t(&format!("  DEA {}{}\n", r.letters(2), r.digits(7)));
    b.t("Ins: Tidewater Health Plan ")
        .t(plan_label(r))
        .k(HealthPlan, &member(r))
        .t(&format!(" BIN 0{} PCN TWRX\n", r.digits(5)));
    b.t("[ ] Approved  [ ] Denied   Signature ____________\n");
}

fn priorauth(r: &mut Rng, b: &mut B) {
    let p = pt(r);
    b.t("*** FAX COVER — PRIOR AUTHORIZATION ***\nTo: Keystone Mutual UM Dept   Fax: ")
        .k(Fax, &phone(r))
        .t("\nFrom: ")
        .t(staff(r))
        .t(", Halloway Creek Family Medicine   Ph: ")
        .k(Phone, &phone(r))
        .t(&format!(
            "\nPages: {} (incl. cover)   Date: ",
            r.range(2, 14)
        ))
        .k(Date, &ds(recent(r), r.range(0, 6) as usize))
        .t("\n\nMember name: ");
    name(r, b, &p);
    b.t("\nMember DOB: ")
        .k(Date, &ds(dob(r), r.range(0, 8) as usize));
    b.t("\n")
        .t(plan_label(r))
        .k(HealthPlan, &member(r))
        .t(&format!("   Group: {}\n", r.digits(7)));
    b.t(&format!(
        "Requested: CPT {} x1, dx {} / {}\n",
        r.s(CPT),
        r.s(ICD),
        r.s(ICD)
    ));
    b.t("Urgent? [X] yes — scheduled for ")
        .k(Date, &ds(recent(r), 3))
        .t("\n");
    b.t("Ordering NPI ")
        .t(&npi(r))
        .t("   Ref PA-")
        .t(&r.digits(6))
        .t("\n");
    b.t("CONFIDENTIAL: this fax contains PHI. If received in error call ")
        .k(Phone, &phone(r))
        .t(".\n");
}

fn discharge(r: &mut Rng, b: &mut B) {
    let p = pt(r);
    let adm = recent(r);
    b.t("DISCHARGE SUMMARY\nPatient: ");
    b.p(&p.last.to_uppercase())
        .t(", ")
        .p(&p.first.to_uppercase());
    if !p.middle.is_empty() && r.chance(60) {
        b.t(" ").p(&p.middle.to_uppercase());
    }
    b.t("   ")
        .t(mrn_label(r))
        .k(Mrn, &mrn(r))
        .t("   ")
        .t(acct_label(r))
        .k(Account, &account(r));
    b.t("\nAdmitted: ")
        .k(Date, &ds(adm, 0))
        .t("   Discharged: ")
        .k(Date, &ds(recent(r), 0));
    b.t("   Room ")
        .k(Room, &format!("{}{}", r.range(2, 7), r.range(10, 49)))
        .t("\nAttending: ")
        .t(staff(r))
        .t(", MD\n\n");
    b.t("HPI: ");
    if r.chance(50) {
        b.k(Age, &old_age(r)).t(&format!(
            "-year-old {} ",
            if p.female { "woman" } else { "man" }
        ));
    } else {
        b.t(&format!(
            "{}-year-old {} ",
            r.range(30, 88),
            if p.female { "woman" } else { "man" }
        ));
    }
    b.t(r.s(&[
        "admitted with CHF exacerbation, diuresed 4 L.",
        "admitted with community-acquired pneumonia, treated with ceftriaxone.",
        "admitted after a fall at home, hip films negative.",
    ]));
    b.t(" Lives at ");
    addr_block(r, b);
    b.t(" with ");
    b.t(r.s(&["her daughter ", "his wife ", "a niece, ", "son "]))
        .p(&rel(r, &p))
        .t(" (")
        .k(Phone, &phone(r))
        .t(").\n");
    b.t(&format!(
        "Discharge meds: {}; {}.\n",
        r.s(DRUGS),
        r.s(DRUGS)
    ));
    b.t("Follow-up: PCP Dr. ")
        .t(staff_last(r))
        .t(" on ")
        .k(Date, &ds(recent(r), 3))
        .t(", labs (LOINC 2345-7) in 1 week.\n");
}

fn soapnote_a(r: &mut Rng, b: &mut B) {
    let p = pt(r);
    b.t("PROGRESS NOTE  ")
        .k(Date, &ds(recent(r), 1))
        .t("\npt: ");
    if r.chance(50) {
        b.p(&p.last.to_uppercase()).t(", ").p(p.first);
    } else {
        b.p(&format!("{} {}", p.first, p.last));
    }
    b.t("  ").t(mrn_label(r)).k(Mrn, &mrn(r)).t("\n");
    b.t("S: ");
    if r.chance(50) {
        b.k(Age, &old_age(r))
            .t(if r.chance(50) { " y/o " } else { "yo " });
    } else {
        b.t(&format!("{} y/o ", r.range(20, 89)));
    }
    b.t(if p.female { "F" } else { "M" });
    b.t(r.s(&[
        " c/o SOB x3d, hx COPD, ",
        " c/o R knee pain, hx OA, ",
        " f/u HTN, c/o HA, ",
        " c/o dizziness, hx afib on apixaban, ",
    ]));
    b.t("accompanied by ")
        .t(r.s(&["dtr ", "son ", "spouse ", "grandson "]))
        .p(r.s(RELATIVES))
        .t(". ");
    b.t("pt states sx began ")
        .k(Date, &ds(recent(r), 1))
        .t(".\n");
    b.t(&format!(
        "O: BP {}/{} HR {} T 37.{} SpO2 9{}%\n",
        r.range(100, 170),
        r.range(60, 99),
        r.range(55, 110),
        r.range(0, 9),
        r.range(0, 9)
    ));
    b.t(&format!("A: {} — stable\n", r.s(ICD)));
    b.t("P: cont meds, f/u 2 wks, rtc prn. call pt @ ")
        .k(Phone, &phone(r))
        .t(" w/ labs. ");
    b.t("— ").t(staff(r)).t(", NP\n");
}

// Second layouts of the everyday genres: the same genre is written many ways.

fn referral(r: &mut Rng, b: &mut B) {
    if r.chance(55) {
        return referral_a(r, b);
    }
    let p = pt(r);
    b.t("From: ")
        .t(staff(r))
        .t(" <referrals@hallowaycreek.org>\nTo: Sorrell Orthopedics intake\n");
    b.t("Subject: New referral - ");
    b.p(&p.last.to_uppercase())
        .t(" ")
        .p(&initial(p.first))
        .t(" - dob ")
        .k(Date, &ds(dob(r), 1))
        .t("\n\n");
    b.t("Hello team,\n\nPlease schedule ");
    name(r, b, &p);
    b.t(&format!(
        " for {} (",
        r.s(&[
            "a consult re: R knee OA",
            "EMG of both arms",
            "a second opinion on lumbar stenosis"
        ])
    ));
    b.t(r.s(ICD)).t("). Pt prefers mornings; ");
    b.t(r.s(&["cell ", "home ", "text only to "]))
        .k(Phone, &phone(r))
        .t(". ");
    if r.chance(50) {
        b.t("Interpreter needed. Her grandson ")
            .p(&rel(r, &p))
            .t(" usually comes along.");
    }
    b.t("\nMRN ")
        .k(Mrn, &mrn(r))
        .t(" / ")
        .t(plan_label(r))
        .k(HealthPlan, &member(r));
    b.t("\nRecords attached: ")
        .p(&fold(&p.last.replace([' ', '\''], "")))
        .t("_xrays_")
        .k(Date, &ds(recent(r), 2))
        .t(".pdf\n\nThanks!\n")
        .t(staff(r))
        .t("\nReferral coordinator | direct ")
        .k(Phone, &phone(r))
        .t("\n");
}

fn spell(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphabetic())
        .flat_map(|c| c.to_lowercase())
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn voicemail(r: &mut Rng, b: &mut B) {
    if r.chance(50) {
        return voicemail_a(r, b);
    }
    let p = pt(r);
    b.t("VM-to-text (confidence 0.8")
        .t(&r.range(0, 9).to_string())
        .t(")\nyeah hi its ");
    b.p(&p.first.to_lowercase())
        .t(" last name ")
        .p(&p.last.to_lowercase())
        .t(" thats ")
        .p(&spell(p.last));
    b.t(" um i'm calling for my ")
        .t(r.s(&["father ", "husband ", "aunt "]));
    b.p(&r.s(RELATIVES).to_lowercase())
        .t(" he's ")
        .k(Age, &words(r.range(90, 99)))
        .t(" his birthday is ");
    let d = dob(r);
    b.k(
        Date,
        &format!("{} {} {}", words(d.m), words(d.d), year_words(d.y)),
    );
    b.t(" and he fell again last night we're at ");
    let n = r.range(100, 9899);
    let st = r.s(STREETS).to_lowercase();
    b.k(Address, &format!("{} {st}", digit_words(r, &n.to_string())));
    b.t(" please have someone call ");
    let (a, e, l) = phone_parts(r);
    let sp = format!(
        "{} {} {}",
        digit_words(r, &a),
        digit_words(r, &e),
        digit_words(r, &l)
    );
    b.k(Phone, &sp)
        .t(" again thats ")
        .k(Phone, &format!("{a} {e} {l}"))
        .t(" okay bye\n");
}

fn schedchat(r: &mut Rng, b: &mut B) {
    if r.chance(50) {
        return schedchat_a(r, b);
    }
    let (p, q) = (pt(r), pt(r));
    let s1 = r.s(STAFF_SHORT);
    let s2 = r.s(STAFF_SHORT);
    b.t("Teams • Scheduling pod\n");
    b.t(&format!(
        "{s1} 8:02 AM\nheads up the {} slot on ",
        r.s(&["9:40", "11:20", "3:00"])
    ))
    .k(Date, &ds(recent(r), 8));
    b.t(" is double booked - ")
        .p(&p.first.to_lowercase())
        .t(" (")
        .p(&format!("{} {}", p.first, p.last))
        .t(") and ");
    b.p(q.last).t("\n");
    b.t(&format!(
        "{s2} 8:05 AM\nmoving {} to thurs, texted her at ",
        if q.female { "mrs" } else { "mr" }
    ));
    b.k(Phone, &phone(r))
        .t(". ")
        .p(short(&q))
        .t("'s wife said ok\n");
    b.t(&format!("{s1} 8:06 AM\nty!! also can someone call back "))
        .p(&p.last.to_uppercase())
        .t(", ")
        .p(&p.first.to_uppercase());
    b.t(" re: ")
        .t(r.s(&["prior auth", "copay q", "wrong dob on file, should be "]));
    if b.s.ends_with("should be ") {
        b.k(Date, &ds(dob(r), 0));
    }
    b.t("\n");
}

fn fwdthread(r: &mut Rng, b: &mut B) {
    if r.chance(50) {
        return fwdthread_a(r, b);
    }
    let p = pt(r);
    let d = recent(r);
    let wd = r.s(&["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]);
    b.t("FYI see below - can billing look at this?\n\n-----Original Message-----\nFrom: ");
    b.p(p.last)
        .t(", ")
        .p(p.first)
        .t(" <")
        .k(Email, &email(r, &p, 1966))
        .t(">\nSent: ")
        .t(wd)
        .t(", ");
    b.k(
        Date,
        &format!("{} {}, {}", MONTHS[(d.m - 1) as usize], d.d, d.y),
    )
    .t(&format!(" {}:{:02} AM\n", r.range(6, 11), r.range(0, 59)));
    b.t("To: Billing Office\nSubject: RE: statement ")
        .k(Account, &account(r))
        .t("\n\n");
    b.t("I already paid this by phone on ")
        .k(Date, &ds(recent(r), 4))
        .t(" with card ending ")
        .t(&r.digits(4))
        .t(". ");
    b.t("Please stop sending letters to ");
    addr_block(r, b);
    b.t(", I moved.\n\n> -----Original Message-----\n> From: Halloway Creek Billing\n> Our records show a balance for ");
    b.p(&format!("{} {}", p.first, p.last).to_uppercase())
        .t(", DOS ")
        .k(Date, &ds(recent(r), 0))
        .t(".\n");
}

fn soapnote(r: &mut Rng, b: &mut B) {
    if r.chance(50) {
        return soapnote_a(r, b);
    }
    let p = pt(r);
    b.t(&format!(
        "{} {} - ",
        r.s(&["Tele f/u", "Walk-in", "RN visit"]),
        r.s(&["note", "enc"])
    ))
    .k(Date, &ds(recent(r), 1));
    b.t("\n")
        .p(&p.first.to_lowercase())
        .t(" ")
        .p(&p.last.to_lowercase())
        .t(", ");
    if r.chance(50) {
        b.k(Age, &old_age(r)).t(if p.female { "F" } else { "M" });
    } else {
        b.t(&format!(
            "{}{}",
            r.range(18, 89),
            if p.female { "F" } else { "M" }
        ));
    }
    b.t(" w/ hx ")
        .t(r.s(&["DM2, CKD3", "HFrEF, afib", "OSA on CPAP", "COPD, tob use"]))
        .t(". ");
    b.t("s: c/o ")
        .t(r.s(&["worsening LE edema", "cough x1wk", "low sugars at night"]))
        .t(", dtr ");
    b.p(&r.s(RELATIVES).to_lowercase())
        .t(" helps w/ meds.\no: afebrile, wt up 2kg.\na/p: ")
        .t(r.s(ICD));
    b.t(" - adj ")
        .t(r.s(DRUGS))
        .t(", f/u ")
        .k(Date, &ds(recent(r), 1))
        .t(", pt ok w/ plan, vm left @ ")
        .k(Phone, &phone(r))
        .t("\n");
}

fn portalmsg(r: &mut Rng, b: &mut B) {
    if r.chance(55) {
        return portalmsg_a(r, b);
    }
    let p = pt(r);
    let proxy = rel(r, &p);
    b.t("MyHalloway message (proxy access)\nSent by: ")
        .p(&proxy)
        .t(" on behalf of ")
        .p(&format!("{} {}", p.first, p.last));
    b.t("\nDate: ")
        .k(Date, &ds(recent(r), 3))
        .t("\n\nHello, I'm ")
        .p(short(&p))
        .t("'s ");
    b.t(r.s(&["daughter", "son", "niece", "partner"]))
        .t(". Mom is ")
        .k(Age, &old_age(r));
    b.t(" now and can't use the portal. Her new insurance is Keystone Mutual, ")
        .t(plan_label(r))
        .k(HealthPlan, &member(r));
    b.t(". Please send the visit summary to ")
        .k(Email, &email(r, &p, 1958))
        .t(" or fax ")
        .k(Fax, &phone(r))
        .t(".\n");
}

// ---------------------------------------------------------------- newer genres

fn courier(r: &mut Rng, b: &mut B) {
    b.t(&format!(
        "PINECREST REFERENCE LAB — COURIER MANIFEST M-{}-{:02}\nRoute {}  Driver: ",
        r.digits(4),
        r.range(1, 20),
        r.range(2, 30)
    ));
    b.t(staff(r))
        .t("  Pickup date: ")
        .k(Date, &ds(recent(r), 2))
        .t("\n");
    b.t("STOP | PATIENT                 | DOB        | MRN        | TUBES | TEMP\n");
    for i in 1..=r.range(3, 5) {
        let p = pt(r);
        b.t(&format!("{i:<4} | "));
        b.p(&p.last.to_uppercase())
            .t(",")
            .p(&p.first.to_uppercase())
            .t(" | ");
        b.k(Date, &ds(dob(r), 0)).t(" | ").k(Mrn, &mrn(r));
        b.t(&format!(
            " | {} {} | {}.{}C\n",
            r.range(1, 4),
            r.s(&["SST", "LAV", "NaF", "UA"]),
            r.range(2, 7),
            r.range(0, 9)
        ));
    }
    b.t(&format!(
        "Cooler seal {}  Lot {}{}\n",
        r.digits(6),
        r.digits(4),
        r.letters(1)
    ));
    b.t("Discrepancy: tube for ")
        .p(pt(r).first)
        .t(" unlabelled, called site ")
        .k(Phone, &phone(r))
        .t("\n");
}

fn disability(r: &mut Rng, b: &mut B) {
    let p = pt(r);
    b.t("ATTENDING PHYSICIAN STATEMENT — SHORT-TERM DISABILITY\nPart A (claimant)\n1. Name (last, first, MI): ");
    b.p(p.last).t(", ").p(p.first);
    if !p.middle.is_empty() {
        b.t(", ").p(&initial(p.middle));
    }
    b.t("\n2. SSN: ")
        .k(Ssn, &ssn(r))
        .t("   3. Date of birth: ")
        .k(Date, &ds(dob(r), 0));
    b.t("\n4. Home address: ");
    addr_block(r, b);
    b.t("\n5. Daytime phone: ")
        .k(Phone, &phone(r))
        .t("   E-mail: ")
        .k(Email, &email(r, &p, 1975));
    b.t("\n6. Employer: Brightwater Foundry   Claim no. ")
        .k(Account, &format!("STD-{}", r.digits(8)));
    b.t("\n7. Last day worked: ")
        .k(Date, &ds(recent(r), 8))
        .t("\nPart B (physician)\n");
    b.t(&format!(
        "Diagnosis: {}  {}   First treated: ",
        r.s(ICD),
        r.s(ICD)
    ));
    b.k(Date, &ds(recent(r), 8))
        .t("\nEstimated return to work: ")
        .k(Date, &ds(recent(r), 8));
    b.t(" (or in 6 weeks)\nPhysician: ")
        .t(staff(r))
        .t(", NPI ")
        .t(&npi(r))
        .t("  Tel ")
        .k(Phone, &phone(r))
        .t("\n");
}

fn campform(r: &mut Rng, b: &mut B) {
    let p = pt(r);
    let d = D {
        y: r.range(2011, 2019),
        m: r.range(1, 12),
        d: r.range(1, 28),
    };
    b.t("CAMP WAPITI RIDGE — CAMPER HEALTH FORM (session 2)\nCamper: ");
    b.p(p.first).t(" ");
    if r.chance(30) {
        b.t("\"").p(short(&p)).t("\" ");
    }
    b.p(p.last)
        .t("   Birthdate: ")
        .k(Date, &ds(d, r.range(0, 4) as usize))
        .t(&format!("   Cabin {}\n", r.range(1, 12)));
    b.t("Parent/guardian 1: ")
        .p(&rel(r, &p))
        .t("  cell ")
        .k(Phone, &phone(r))
        .t("\n");
    b.t("Parent/guardian 2: ")
        .p(&format!("{} {}", r.s(RELATIVES), r.pick(PATIENTS).2))
        .t("  work ")
        .k(Phone, &phone(r))
        .t("\n");
    b.t("Home: ");
    addr_block(r, b);
    b.t("\nInsurance: Tidewater Health Plan  ")
        .t(plan_label(r))
        .k(HealthPlan, &member(r))
        .t("\n");
    b.t(&format!(
        "Allergies: {}   Meds at camp: {}\nLast tetanus: ",
        r.s(&[
            "peanuts (EpiPen x2)",
            "none known",
            "penicillin — hives",
            "bees"
        ]),
        r.s(&["albuterol prn", "none", "cetirizine 10 mg"])
    ));
    b.k(Date, &ds(recent(r), 0))
        .t("\nGrandparent emergency contact (age ")
        .k(Age, &old_age(r))
        .t("): ")
        .p(&rel(r, &p))
        .t("\n");
}

fn aecrf(r: &mut Rng, b: &mut B) {
    let p = pt(r);
    b.t(&format!(
        "eCRF — ADVERSE EVENT LOG   Protocol HCX-{}-{}   Site 07   Subject {}-{}\n",
        r.digits(3),
        r.digits(2),
        r.digits(3),
        r.digits(4)
    ));
    b.t(&format!(
        "AE #{}  Term: {}  MedDRA PT 100{}\n",
        r.range(1, 9),
        r.s(&["nausea", "rash maculopapular", "syncope", "ALT increased"]),
        r.digits(5)
    ));
    b.t("Onset date: ")
        .k(Date, &ds(recent(r), 5))
        .t("   Resolved: ")
        .k(Date, &ds(recent(r), 5));
    b.t(&format!(
        "\nSeverity: grade {}   Serious: {}   Related: possibly\n",
        r.range(1, 3),
        r.s(&["N", "Y"])
    ));
    b.t("Age at onset: ");
    if r.chance(50) {
        b.k(Age, &old_age(r));
    } else {
        b.t(&r.range(40, 89).to_string());
    }
    b.t("\nSDV note: source = hospital chart of ");
    b.p(&p.last.to_uppercase())
        .t(" ")
        .p(&p.first.to_uppercase())
        .t(", ")
        .t(mrn_label(r))
        .k(Mrn, &mrn(r));
    b.t(" — CRA to redact before upload. ED visit ")
        .k(Date, &ds(recent(r), 2))
        .t(", room ")
        .k(Room, &r.range(1, 40).to_string())
        .t(".\n");
    b.t("Query Q-")
        .t(&r.digits(5))
        .t(" raised by ")
        .t(staff(r))
        .t("; reply by site coordinator ")
        .t(staff(r))
        .t("\n");
}

fn inscard(r: &mut Rng, b: &mut B) {
    let p = pt(r);
    let plan = r.s(&[
        "TIDEWATER HEALTH PLAN",
        "KEYSTONE MUTUAL",
        "Tidewater Health Plan",
    ]);
    b.t("[OCR front]\n")
        .t(plan)
        .t(r.s(&["  PPO\n", "  Medicaid Managed Care\n", "  HMO-POS\n"]));
    b.t(r.s(&["Member: ", "Mernber Name ", "MEMBER "]));
    b.p(&format!("{} {}", p.first, p.last).to_uppercase())
        .t("\n");
    b.t(r.s(&["ID: ", "lD# ", "Member lD "]))
        .k(HealthPlan, &member(r))
        .t("\n");
    b.t(&format!(
        "Group: {}   RxBIN {}   RxPCN {}\n",
        r.digits(7),
        r.digits(6),
        r.letters(4)
    ));
    b.t("Dependents: 01 ")
        .p(&p.first.to_uppercase())
        .t("  02 ")
        .p(&r.s(RELATIVES).to_uppercase())
        .t("\n");
    b.t(&format!(
        "PCP: DR {}  Copay $25/$50\n",
        staff_last(r).to_uppercase()
    ));
    b.t("Eff ")
        .k(Date, &ds(recent(r), 0))
        .t("\n[OCR back]\nMember services ")
        .k(Phone, &phone(r));
    b.t("  Provider fax ")
        .k(Fax, &phone(r))
        .t("\nDOB ")
        .k(Date, &ds(dob(r), r.range(0, 1) as usize))
        .t(" on file\n");
}

fn runsheet(r: &mut Rng, b: &mut B) {
    let p = pt(r);
    b.t(&format!(
        "NORTHFORK EMS — PATIENT CARE REPORT  Incident {}-{}  Medic {}\n",
        r.range(25, 26),
        r.digits(6),
        r.range(1, 12)
    ));
    b.t("Date: ").k(Date, &ds(recent(r), 0)).t(&format!(
        "  Dispatched {:02}:{:02}  On scene {:02}:{:02}\n",
        r.range(0, 23),
        r.range(0, 59),
        r.range(0, 23),
        r.range(0, 59)
    ));
    b.t("Pt name: ");
    name(r, b, &p);
    b.t("   Age: ");
    if r.chance(50) {
        b.k(Age, &old_age(r));
    } else {
        b.t(&r.range(18, 89).to_string());
    }
    b.t("  DOB ").k(Date, &ds(dob(r), 0)).t("\nPickup: ");
    addr_block(r, b);
    b.t("\nCallback: ").k(Phone, &phone(r)).t("\n");
    b.t(r.s(&[
        "MVC, pt driver of sedan plate ",
        "Fall from ladder next to pt's truck, plate ",
        "Found in car in parking lot, plate ",
    ]));
    b.k(
        Vehicle,
        &format!("{}{}{}", r.digits(1), r.letters(3), r.digits(3)),
    )
    .t(&format!(" ({}).", r.s(STATES)));
    if r.chance(40) {
        b.t(" VIN ").k(
            Vehicle,
            &format!(
                "1{}{}{}{}",
                r.letters(4),
                r.digits(2),
                r.letters(1),
                r.digits(9)
            ),
        );
    }
    b.t(&format!(
        "\nVitals BP {}/{} P {} RR {} GCS {}\n",
        r.range(90, 180),
        r.range(50, 100),
        r.range(50, 130),
        r.range(12, 28),
        r.range(9, 15)
    ));
    b.t("Transported to Halloway Creek ED, Rm ")
        .k(Room, &r.range(1, 24).to_string())
        .t(". Spouse ")
        .p(&rel(r, &p))
        .t(" notified ")
        .k(Phone, &phone(r))
        .t("\n");
}

fn sleeprpt(r: &mut Rng, b: &mut B) {
    let p = pt(r);
    b.t("BELLMERE SLEEP LAB — POLYSOMNOGRAPHY REPORT\nName: ");
    b.p(p.last)
        .t(", ")
        .p(p.first)
        .t("   ")
        .t(dob_label(r))
        .k(Date, &ds(dob(r), 0))
        .t("\n");
    b.t(mrn_label(r))
        .k(Mrn, &mrn(r))
        .t("   Study date: ")
        .k(Date, &ds(recent(r), 0))
        .t(&format!("   CPT {}\n", r.s(&["95810", "95811"])));
    b.t("Referring: Dr. ").t(staff(r)).t("\n");
    b.t(&format!(
        "AHI {}.{}/h, RDI {}.{}/h, SpO2 nadir {}%. Impression: {} (G47.33).\n",
        r.range(5, 60),
        r.range(0, 9),
        r.range(5, 70),
        r.range(0, 9),
        r.range(72, 90),
        r.s(&["moderate OSA", "severe OSA", "mild OSA"])
    ));
    b.t("Titration device: ResMed AirSense 11, SN ")
        .k(Device, &format!("{}{}", r.digits(11), r.range(0, 9)))
        .t("; modem IMEI ");
    b.k(Device, &r.digits(15)).t("\n");
    b.t("DME: mail supplies to ");
    addr_block(r, b);
    b.t(", pt phone ").k(Phone, &phone(r)).t("\n");
}

fn chairsched(r: &mut Rng, b: &mut B) {
    b.t("HALLOWAY CREEK DIALYSIS CENTER — CHAIR SCHEDULE week of ")
        .k(Date, &ds(recent(r), 2))
        .t("\n");
    b.t("Chair\tShift\tPatient\tMRN\tPhone\tNotes\n");
    for _ in 0..r.range(4, 6) {
        let p = pt(r);
        b.k(Room, &r.range(1, 24).to_string()).t(&format!(
            "\t{}\t",
            r.s(&["MWF-1", "MWF-2", "TTS-1", "TTS-3"])
        ));
        if r.chance(50) {
            b.p(&format!("{} {}", p.first, p.last));
        } else {
            b.p(&p.last.to_uppercase()).t(", ").p(p.first);
        }
        b.t("\t")
            .k(Mrn, &mrn(r))
            .t("\t")
            .k(Phone, &phone(r))
            .t("\t");
        b.t(r.s(&[
            "",
            "needs lift",
            "Hep B neg",
            "transport by daughter",
            "prefers window chair",
        ]));
        b.t("\n");
    }
    b.t("Charge RN: ").t(staff(r)).t("\n");
}

fn wcfroi(r: &mut Rng, b: &mut B) {
    let p = pt(r);
    b.t("EMPLOYER'S FIRST REPORT OF INJURY OR ILLNESS (Granite State Casualty)\nEmployee: ");
    b.p(&format!("{} {}", p.first, p.last))
        .t("   SSN ")
        .k(Ssn, &ssn(r))
        .t("\nDOB ")
        .k(Date, &ds(dob(r), 0));
    b.t("   Phone ").k(Phone, &phone(r)).t("\nAddress: ");
    addr_block(r, b);
    b.t("\nDriver's license: ")
        .k(
            License,
            &format!(
                "{}{}-{}-{}",
                r.letters(1),
                r.digits(3),
                r.digits(4),
                r.digits(4)
            ),
        )
        .t(&format!(" ({})\n", r.s(STATES)));
    b.t("Date of injury: ")
        .k(Date, &ds(recent(r), 0))
        .t(&format!(
            "  Time {}:{:02}  Employer FEIN {}-{}\n",
            r.range(6, 18),
            r.range(0, 59),
            r.digits(2),
            r.digits(7)
        ));
    b.t("Claim # ")
        .k(Account, &format!("WC{}", r.digits(9)))
        .t("\n");
    b.t(r.s(&[
        "Description: lifting pallet, felt pop in low back (M54.50).",
        "Description: forklift reversed into employee's own pickup, plate ",
        "Description: slipped on ice walking to personal vehicle, plate ",
    ]));
    if b.s.ends_with("plate ") {
        b.k(Vehicle, &format!("{}{}", r.letters(3), r.digits(4)));
    }
    b.t("\nWitness: coworker ")
        .p(&format!("{} {}", r.s(RELATIVES), r.pick(PATIENTS).2))
        .t("\nTreating: ")
        .t(staff(r))
        .t("\n");
}

fn somali(r: &mut Rng, b: &mut B) {
    let p = pt(r);
    b.t(r.s(&[
        "Subject: Fariin bukaan\n\n",
        "[SMS]\n",
        "Portal — fariin cusub\n\n",
    ]));
    b.t(r.s(&["Asc, ", "Salaan, ", "Nabad, "]));
    b.t("magacaygu waa ");
    b.p(&format!("{} {}", p.first, p.last))
        .t(". Taariikhda dhalashadaydu waa ")
        .k(Date, &ds(dob(r), 7))
        .t(". ");
    b.t(r.s(&[
        "Waxaan rabaa inaan dib u dhigo ballanta ",
        "Daawadii way iga dhammaatay, fadlan ii soo diyaariya ",
        "Wiilkayga ayaa xanuunsan, ballan ma heli karaa ",
    ]));
    b.k(Date, &ds(recent(r), 7)).t(". ");
    b.t("Lambarka taleefankaygu waa ")
        .k(Phone, &phone(r))
        .t(". ");
    if r.chance(60) {
        b.t("Hooyaday ")
            .p(&rel(r, &p))
            .t(" waxay jirtaa ")
            .k(Age, &old_age(r))
            .t(" sano. ");
    }
    b.t("Lambarka caafimaadka: ")
        .k(HealthPlan, &member(r))
        .t(". ");
    b.t("Mahadsanid.\n").p(short(&p)).t("\n");
}

fn greek(r: &mut Rng, b: &mut B) {
    if r.chance(50) {
        let &(f, l) = r.pick(GREEK_SCRIPT);
        b.t("Θέμα: ραντεβού\n\nΚαλημέρα σας, ονομάζομαι ");
        b.p(&format!("{f} {l}"))
            .t(". Ημερομηνία γέννησης: ")
            .k(Date, &ds(dob(r), 7))
            .t(". ");
        b.t("Θα ήθελα να αλλάξω το ραντεβού μου της ")
            .k(Date, &ds(recent(r), 7))
            .t(". ");
        b.t("Το τηλέφωνό μου είναι ")
            .k(Phone, &phone(r))
            .t(" και η διεύθυνσή μου ");
        addr_block(r, b);
        b.t(". Αριθμός ασφάλισης: ")
            .k(HealthPlan, &member(r))
            .t(".\nΕυχαριστώ,\n")
            .p(f)
            .t("\n");
    } else {
        let p = pt(r);
        b.t("Thema: syntagi\n\nGeia sas, eimai o/i ");
        b.p(&format!("{} {}", p.first, p.last))
            .t(", imerominia gennisis ")
            .k(Date, &ds(dob(r), 7))
            .t(". ");
        b.t("Xreiazomai ananeosi syntagis gia ")
            .t(r.s(DRUGS))
            .t(". ");
        b.t("Tilefono ")
            .k(Phone, &phone(r))
            .t(", email ")
            .k(Email, &email(r, &p, 1960))
            .t(". ");
        b.t("I giagia mou ")
            .p(r.s(RELATIVES))
            .t(" einai ")
            .k(Age, &old_age(r))
            .t(" xronon kai erxetai mazi mou.\n");
        b.t("Arithmos fakelou ").k(Mrn, &mrn(r)).t("\n");
    }
}

fn punjabi(r: &mut Rng, b: &mut B) {
    let p = pt(r);
    b.t(r.s(&["Sat sri akal ji, ", "Namaste doctor sahib, ", "Ji, "]));
    b.t(r.s(&["mera naam ", "main ", "mainu "]));
    b.p(&format!("{} {}", p.first, p.last));
    b.t(r.s(&[" hai. ", " haan. ", " bol rahi haan. "]));
    b.t("Meri janam tarikh ")
        .k(Date, &ds(dob(r), *r.pick(&[7usize, 0, 3])))
        .t(" hai. ");
    b.t(r.s(&[
        "Mainu davai di refill chahidi hai, ",
        "Mere pitaji di tabiyat kharab hai, ",
        "Report kab aayegi? ",
    ]));
    if r.chance(50) {
        b.t("pitaji ")
            .p(&rel(r, &p))
            .t(" di umar ")
            .k(Age, &old_age(r))
            .t(" saal hai. ");
    }
    b.t("Mera phone number ").k(Phone, &phone(r)).t(" hai. ");
    b.t("Ghar da pata: ");
    addr_block(r, b);
    b.t(". ")
        .t(mrn_label(r))
        .k(Mrn, &mrn(r))
        .t(". Appointment ")
        .k(Date, &ds(recent(r), 0))
        .t(" nu si.\nDhanvaad\n");
}

type Family = fn(&mut Rng, &mut B);

const WRITERS: [Family; 24] = [
    referral, hl7feed, voicemail, schedchat, billing, attachname, fwdthread, portalmsg, refillfax,
    priorauth, discharge, soapnote, courier, disability, campform, aecrf, inscard, runsheet,
    sleeprpt, chairsched, wcfroi, somali, greek, punjabi,
];

/// `n` documents from `seed`, the families in turn.
pub fn generate(seed: u64, n: usize) -> Set {
    let mut docs = Vec::with_capacity(n);
    for i in 0..n {
        let mut r = Rng(seed ^ (i as u64).wrapping_mul(0xA076_1D64_78BD_642F));
        r.next();
        let f = i % FAMILIES.len();
        let mut b = B::default();
        WRITERS[f](&mut r, &mut b);
        docs.push(Doc {
            family: FAMILIES[f],
            text: b.s,
            labels: b.labels,
        });
    }
    let roster = PATIENTS
        .iter()
        .step_by(3)
        .map(|(first, _, last, _, _)| format!("{first} {last}"))
        .collect();
    let keep = STAFF.iter().chain(PLACES).map(|s| s.to_string()).collect();
    Set { docs, roster, keep }
}
