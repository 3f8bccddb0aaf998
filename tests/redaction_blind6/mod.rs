//! The sixth blind evaluation set of the PHI redactor: a seeded generator of documents in 24
//! families not used by the earlier sets, each with byte-exact labels of its identifiers.
//! Written without reading the redactor's rules, word lists or the other sets' generators.
//!
//! Conventions: every phone and fax number and every day-precision date is labelled (a
//! timestamp by its date part); ages only from 90; a room or bed by its number; an address as
//! its street line and its city (the state is not labelled); a name as written, one span per
//! contiguous name (two when a comma or `^` splits it). Staff, the practices and the payers
//! are in the keep list and never labelled; so are NPIs, CPT/ICD-10/HCPCS/NDC/LOINC codes,
//! lots, order and requisition numbers, Rx numbers, model numbers, times and relative dates.

use opsdesk::governance::redact::Kind;

use crate::redaction_harness::{Doc, Label, Set};

pub const FAMILIES: [&str; 24] = [
    "genetics",
    "ivf",
    "pathology",
    "bloodbank",
    "cgm",
    "cardiac",
    "applog",
    "sqldump",
    "links",
    "foster",
    "student",
    "military",
    "adaclaim",
    "chiro",
    "speech",
    "travel",
    "crisis",
    "europe",
    "asia",
    "merge",
    "smsopt",
    "ivr",
    "teletype",
    "account",
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
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
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn digits(&mut self, n: usize) -> String {
        (0..n)
            .map(|i| {
                let lo = if i == 0 { 1 } else { 0 };
                char::from(b'0' + lo + self.below(10 - lo as usize) as u8)
            })
            .collect()
    }
    fn letters(&mut self, n: usize) -> String {
        const L: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ";
        (0..n).map(|_| char::from(self.pick(L))).collect()
    }
}

/// A document being written: plain text and labelled pieces, in order.
struct B {
    text: String,
    labels: Vec<Label>,
}

impl B {
    fn new() -> B {
        B {
            text: String::new(),
            labels: Vec::new(),
        }
    }
    fn t(&mut self, s: &str) -> &mut B {
        self.text.push_str(s);
        self
    }
    fn l(&mut self, s: &str, kind: Kind) -> &mut B {
        let start = self.text.len();
        self.text.push_str(s);
        self.labels.push(Label {
            start,
            end: self.text.len(),
            kind,
        });
        self
    }
    fn doc(self, family: &'static str) -> Doc {
        Doc {
            family,
            text: self.text,
            labels: self.labels,
        }
    }
}

const FIRST: &[&str] = &[
    "Wendeline",
    "Oksana",
    "Thaddeus",
    "Ingrid",
    "Bartholomew",
    "Nkechi",
    "Yevgenia",
    "Radomir",
    "Ottilie",
    "Cassius",
    "Ximena",
    "Dagny",
    "Lorcan",
    "Saoirse",
    "Teodora",
    "Anselm",
    "Mirela",
    "Kofi",
    "Adaeze",
    "Zbigniew",
    "Małgorzata",
    "Jürgen",
    "Hélène",
    "Amélie",
    "Dmitri",
    "Jiahui",
    "Minseo",
    "Tariq",
    "Rania",
    "Ifeoma",
    "Kwabena",
    "Aroha",
    "Sione",
    "Leilani",
    "Winona",
    "Zsófia",
    "Lasse",
    "Sigrid",
    "Eero",
    "Fenna",
    "Grégoire",
    "Solène",
    "Eulalia",
    "Berenice",
    "Ambrose",
    "Percival",
    "Opal",
    "Hope",
    "Faith",
    "Summer",
    "Will",
    "Rusty",
    "Dawn",
    "Joy",
    "Sterling",
    "Bishop",
    "Royal",
    "Precious",
    "Marvel",
    "Journey",
    "Crystal",
    "Jean-Baptiste",
    "Mary-Kate",
    "Anne-Sophie",
    "Ho-seong",
    "Ngozi",
    "Thandiwe",
    "Björn",
    "Åsa",
    "Søren",
    "Maëlle",
    "Iñaki",
    "Begoña",
    "Xochitl",
    "Citlali",
    "Yerlan",
    "Aigerim",
    "Gulnara",
    "Farrukh",
    "Deshawn",
    "Latrice",
    "Tyrese",
    "Marisela",
    "Brennan",
    "Kaydence",
    "Odalys",
    "Ezekiel",
    "Wilhelmina",
];

const LAST: &[&str] = &[
    "Vanterpool",
    "Oyelaran",
    "Grzybowski",
    "Kowalczyk",
    "Dąbrowska",
    "Schumacher",
    "Pfeiffer",
    "Lefebvre",
    "Beaumont",
    "Vasiliev",
    "Kuznetsova",
    "Zhuravlev",
    "Qian",
    "Jang",
    "Baek",
    "Haddad",
    "Nasser",
    "Khoury",
    "El-Amin",
    "Al-Rashid",
    "Okonkwo",
    "Adeyemi",
    "Mensah",
    "Asante",
    "Tuilagi",
    "Fifita",
    "Kahananui",
    "Yazzie",
    "Begay",
    "Tsosie",
    "Halvorsen",
    "Lindqvist",
    "Virtanen",
    "Korhonen",
    "van der Berg",
    "de Vries",
    "O'Donoghue",
    "MacAuley",
    "Fitzwilliam",
    "St. Clair",
    "Baker",
    "Fisher",
    "Hunter",
    "Mason",
    "Fields",
    "Brooks",
    "Marsh",
    "Frost",
    "Winter",
    "Day",
    "Small",
    "Strong",
    "Price",
    "Bell",
    "Stone",
    "Moody",
    "Ñúñez",
    "Jiménez-Ortega",
    "Çelik",
    "Öztürk",
    "Şahin",
    "de la Cruz",
    "von Aschenbach",
    "Da Silva",
    "Abernethy-Clarke",
    "Nakashima",
    "Tanabe",
    "Oyelowo",
    "Iwu",
    "Zielińska",
    "Horvath",
    "Bălan",
    "Popovici",
    "Kerimov",
    "Nurlanova",
    "Whitlock",
    "Thibodeaux",
    "Boudreaux",
    "Quintanilla",
];

const NICK: &[(&str, &str)] = &[
    ("Jean-Baptiste", "JB"),
    ("Mary-Kate", "Mimi"),
    ("Wendeline", "Wendy"),
    ("Ottilie", "Tillie"),
    ("Cassius", "Cash"),
    ("Teodora", "Dora"),
    ("Ambrose", "Bro"),
    ("Eulalia", "Lali"),
    ("Ifeoma", "Ify"),
    ("Kwabena", "Kobby"),
    ("Bartholomew", "Bart"),
    ("Wilhelmina", "Mina"),
    ("Thaddeus", "Tad"),
    ("Percival", "Percy"),
    ("Ezekiel", "Zeke"),
    ("Yevgenia", "Zhenya"),
    ("Małgorzata", "Gosia"),
    ("Radomir", "Radek"),
];

/// Staff: in the keep list, never labelled.
const STAFF: &[(&str, &str)] = &[
    ("Philippa", "Moorcroft"),
    ("Obadiah", "Kettering"),
    ("Anjali", "Deshpande"),
    ("Casimir", "Walewski"),
    ("Bettina", "Lowry"),
    ("Hollis", "Oduya"),
    ("Marisol", "Quenneville"),
    ("Torsten", "Ekdahl"),
    ("Rosalyn", "Achebe-Grant"),
    ("Leopold", "Fairweather"),
    ("Imogen", "Szabo"),
    ("Desmond", "Okoro-Vance"),
    ("Yvette", "Marchetti"),
    ("Gideon", "Thorsby"),
    ("Priyanka", "Venkataraman"),
    ("Ulrich", "Haas"),
    ("Noor", "Siddiqui"),
    ("Fenwick", "Hale"),
];

const PRACTICES: &[&str] = &[
    "Kestrel Valley Medical Group",
    "Brightwater Family Health",
    "Harrowgate Women's Clinic",
    "Cedarline Fertility Partners",
    "Lantern Hill Children's Therapy",
    "Northbrook Heart Rhythm Center",
    "Saltmarsh Spine & Chiropractic",
    "Pinecrest University Student Health",
    "Ridgeway Community Pharmacy",
    "Wayfarer Travel Medicine",
    "Greyfield Regional Hospital",
    "Amberlyn Genetics Institute",
];

const PAYERS: &[&str] = &[
    "Meridian Crest Health Plan",
    "Bluepoint Mutual",
    "TriShore Dental Benefits",
    "Halcyon Auto Insurance",
    "Prairieland Medicaid",
];

const CITIES: &[(&str, &str)] = &[
    ("Wapakoneta", "OH"),
    ("Tullahoma", "TN"),
    ("Kalispell", "MT"),
    ("Opelousas", "LA"),
    ("Nacogdoches", "TX"),
    ("Ypsilanti", "MI"),
    ("Kewanee", "IL"),
    ("Tahlequah", "OK"),
    ("Hopkinsville", "KY"),
    ("Sheboygan", "WI"),
    ("Pocatello", "ID"),
    ("Walla Walla", "WA"),
    ("Bemidji", "MN"),
    ("Lompoc", "CA"),
    ("Ottumwa", "IA"),
    ("Winnemucca", "NV"),
    ("Lake Havasu City", "AZ"),
    ("Presque Isle", "ME"),
    ("St. Johnsbury", "VT"),
    ("Coeur d'Alene", "ID"),
    ("Rhinelander", "WI"),
    ("Escanaba", "MI"),
    ("Chillicothe", "OH"),
    ("Pawhuska", "OK"),
    ("Vicksburg", "MS"),
    ("Dothan", "AL"),
    ("Valdosta", "GA"),
    ("Beaufort", "SC"),
    ("Elizabeth City", "NC"),
    ("Cumberland", "MD"),
];

const STREETS: &[&str] = &[
    "Quarry Ridge",
    "Tamarack",
    "Bellflower",
    "Old Mill",
    "Cobblestone",
    "Saltgrass",
    "Pennywhistle",
    "Larkspur",
    "Ironwood",
    "Heron Bluff",
    "Candlewood",
    "Whistlestop",
    "Thornapple",
    "Juniper Gap",
    "Boxelder",
    "Sassafras",
    "Mulberry Row",
    "Foxglove",
    "Hickory Knoll",
    "Cattail",
    "Bramblewood",
    "Wrenfield",
    "Lamplighter",
    "Millrace",
];
const SUFFIX: &[&str] = &[
    "Rd",
    "Ln",
    "Ct",
    "Pike",
    "Way",
    "Trail",
    "Dr",
    "Terrace",
    "Cir",
    "Loop",
    "Ave",
    "Street",
    "Boulevard",
    "Road",
    "Lane",
];
const UNITS: &[&str] = &["Apt 3C", "Unit 12", "#204", "Lot 17", "Apt. 5", "Ste B"];

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

type D = (u32, u32, u32);

struct P {
    first: &'static str,
    last: &'static str,
    dob: D,
    phone: String,
    street: String,
    city: &'static str,
    state: &'static str,
    zip: String,
    female: bool,
}

fn person(r: &mut Rng) -> P {
    let (city, state) = r.pick(CITIES);
    let street = match r.below(8) {
        0 => format!("County Road {}", r.range(100, 999)),
        1 => format!(
            "W{} {} {}",
            r.range(1000, 9999),
            r.pick(STREETS),
            r.pick(SUFFIX)
        ),
        2 => format!(
            "{} {} {} {}",
            r.range(10, 9999),
            r.pick(STREETS),
            r.pick(SUFFIX),
            r.pick(UNITS)
        ),
        _ => format!(
            "{} {} {}",
            r.range(2, 19999),
            r.pick(STREETS),
            r.pick(SUFFIX)
        ),
    };
    P {
        first: r.pick(FIRST),
        last: r.pick(LAST),
        dob: (r.range(1930, 2004), r.range(1, 12), r.range(1, 28)),
        phone: format!("{}{}", r.range(201, 989), r.digits(7)),
        street,
        city,
        state,
        zip: if r.chance(25) {
            format!("{}-{}", r.digits(5), r.digits(4))
        } else {
            r.digits(5)
        },
        female: r.chance(50),
    }
}

impl P {
    fn full(&self) -> String {
        format!("{} {}", self.first, self.last)
    }
}

fn visit(r: &mut Rng) -> D {
    (r.range(2025, 2026), r.range(1, 12), r.range(1, 28))
}

fn child_dob(r: &mut Rng) -> D {
    (r.range(2011, 2023), r.range(1, 12), r.range(1, 28))
}

fn old_dob(r: &mut Rng) -> D {
    (r.range(1926, 1935), r.range(1, 12), r.range(1, 28))
}

fn ord(d: u32) -> &'static str {
    match d {
        1 | 21 | 31 => "st",
        2 | 22 => "nd",
        3 | 23 => "rd",
        _ => "th",
    }
}

/// A date in one of many US and international written forms.
fn date(r: &mut Rng, (y, m, d): D) -> String {
    let mon = MONTHS[m as usize - 1];
    let ab = &mon[..3];
    match r.below(13) {
        0 => format!("{m:02}/{d:02}/{y}"),
        1 => format!("{m}/{d}/{:02}", y % 100),
        2 => format!("{y}-{m:02}-{d:02}"),
        3 => format!("{mon} {d}, {y}"),
        4 => format!("{d} {ab} {y}"),
        5 => format!("{ab}. {d}, {y}"),
        6 => format!("{d:02}-{}-{y}", ab.to_uppercase()),
        7 => format!("{m}-{d}-{y}"),
        8 => format!("{d}{} {mon} {y}", ord(d)),
        9 => format!("{mon} {d}{}, {y}", ord(d)),
        10 => format!("{y}/{m:02}/{d:02}"),
        11 => format!("{m}/{d}/{y}"),
        _ => format!("{ab} {d} {y}"),
    }
}

/// A visit-era date in any written form.
fn vdate(r: &mut Rng) -> String {
    let v = visit(r);
    date(r, v)
}

fn iso(&(y, m, d): &D) -> String {
    format!("{y}-{m:02}-{d:02}")
}

fn us(&(y, m, d): &D) -> String {
    format!("{m:02}/{d:02}/{y}")
}

fn phone(r: &mut Rng, digits: &str) -> String {
    let (a, b, c) = (&digits[..3], &digits[3..6], &digits[6..]);
    match r.below(8) {
        0 => format!("({a}) {b}-{c}"),
        1 => format!("{a}-{b}-{c}"),
        2 => format!("{a}.{b}.{c}"),
        3 => format!("+1 {a} {b} {c}"),
        4 => format!("+1-{a}-{b}-{c}"),
        5 => format!("{a} {b} {c}"),
        6 => digits.to_string(),
        _ => format!("1 ({a}) {b}-{c}"),
    }
}

fn new_phone(r: &mut Rng) -> String {
    let d = format!("{}{}", r.range(201, 989), r.digits(7));
    phone(r, &d)
}

fn email(r: &mut Rng, p: &P) -> String {
    let f = ascii(p.first).to_lowercase();
    let l = ascii(p.last).to_lowercase().replace([' ', '\'', '.'], "");
    let dom = r.pick(&[
        "gmail.com",
        "yahoo.com",
        "outlook.com",
        "icloud.com",
        "aol.com",
        "proton.me",
        "frontier.net",
        "mchsi.com",
    ]);
    match r.below(5) {
        0 => format!("{f}.{l}@{dom}"),
        1 => format!("{}{l}{}@{dom}", &f[..1], p.dob.0 % 100),
        2 => format!("{l}_{f}@{dom}"),
        3 => format!("{f}{}@{dom}", r.range(1, 999)),
        _ => format!("{}.{l}@{dom}", f.replace('-', "")),
    }
}

/// ASCII-folds the letters of the name pools, for email local parts.
fn ascii(s: &str) -> String {
    s.to_lowercase()
        .chars()
        .map(|c| match c {
            'ł' => 'l',
            'ą' | 'å' | 'Å' | 'ă' => 'a',
            'ü' | 'ú' => 'u',
            'é' | 'ë' | 'è' => 'e',
            'ó' | 'ö' | 'ø' => 'o',
            'ñ' | 'Ñ' | 'ń' => 'n',
            'ç' | 'Ç' => 'c',
            'ş' | 'Ş' => 's',
            'ğ' => 'g',
            c => c,
        })
        .filter(|c| c.is_ascii())
        .collect()
}

fn luhn_card(r: &mut Rng) -> String {
    let prefix = r.pick(&["4", "51", "37", "6011"]);
    let len = if prefix == "37" { 15 } else { 16 };
    let mut ds: Vec<u32> = prefix.chars().map(|c| c.to_digit(10).unwrap()).collect();
    while ds.len() < len - 1 {
        ds.push(r.below(10) as u32);
    }
    let mut sum = 0;
    for (i, d) in ds.iter().rev().enumerate() {
        let v = if i % 2 == 0 { d * 2 } else { *d };
        sum += if v > 9 { v - 9 } else { v };
    }
    ds.push((10 - sum % 10) % 10);
    let s: String = ds
        .iter()
        .map(|d| char::from_digit(*d, 10).unwrap())
        .collect();
    if r.chance(50) && len == 16 {
        format!("{} {} {} {}", &s[..4], &s[4..8], &s[8..12], &s[12..])
    } else {
        s
    }
}

fn npi(r: &mut Rng) -> String {
    format!("1{}", r.digits(9))
}

fn staff(r: &mut Rng) -> String {
    let (f, l) = r.pick(STAFF);
    match r.below(3) {
        0 => format!("Dr. {l}"),
        1 => format!("{f} {l}"),
        _ => format!("{} {l}", &f[..1]),
    }
}

fn ip(r: &mut Rng) -> String {
    format!(
        "{}.{}.{}.{}",
        r.pick(&[73, 98, 24, 172, 10, 68, 107, 184]),
        r.range(0, 255),
        r.range(0, 255),
        r.range(1, 254)
    )
}

/// The patient's name in one of the forms charts and letters use, each word labelled.
fn name(r: &mut Rng, b: &mut B, p: &P) {
    let nick = NICK.iter().find(|(f, _)| *f == p.first).map(|(_, n)| *n);
    match r.below(6) {
        0 => {
            b.l(p.last, Kind::Person).t(", ").l(p.first, Kind::Person);
        }
        1 => {
            b.l(&p.last.to_uppercase(), Kind::Person)
                .t(", ")
                .l(&p.first.to_uppercase(), Kind::Person);
        }
        2 => {
            b.l(p.first, Kind::Person)
                .t(" ")
                .l(&r.letters(1), Kind::Person)
                .t(". ")
                .l(p.last, Kind::Person);
        }
        3 => {
            let i: String = p.first.chars().take(1).collect();
            b.l(&i, Kind::Person).t(". ").l(p.last, Kind::Person);
        }
        4 if nick.is_some() => {
            b.l(nick.unwrap_or_default(), Kind::Person)
                .t(" ")
                .l(p.last, Kind::Person);
        }
        _ => {
            b.l(&p.full(), Kind::Person);
        }
    }
}

fn dob_label(r: &mut Rng) -> &'static str {
    r.pick(&[
        "DOB",
        "D.O.B.",
        "Date of birth",
        "Birthdate",
        "DOB:",
        "Born",
        "B-day",
    ])
}

fn addr(b: &mut B, p: &P, sep: &str) {
    b.l(&p.street, Kind::Address)
        .t(sep)
        .l(p.city, Kind::Address)
        .t(&format!(", {} ", p.state))
        .l(&p.zip, Kind::Zip);
}

fn genetics(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    let v = visit(r);
    b.t(&format!(
        "{} — Hereditary Cancer Program\nGenetic counselling consult note\nVisit date: ",
        PRACTICES[11]
    ));
    b.l(&date(r, v), Kind::Date).t("\nProband: ");
    name(r, &mut b, p);
    b.t(&format!("   {} ", dob_label(r)))
        .l(&date(r, p.dob), Kind::Date)
        .t("   MRN ");
    b.l(&format!("AG{}", r.digits(7)), Kind::Mrn);
    b.t(&format!(
        "\nReferred by {} for a family history of early-onset breast and ovarian cancer.\n\nPedigree (three generations, maternal side first):\n",
        staff(r)
    ));
    let gm = person(r);
    b.t("  I-2   ").l(&gm.full(), Kind::Person);
    if r.chance(50) {
        b.t(" (maternal grandmother), living, age ")
            .l(&r.range(90, 99).to_string(), Kind::Age)
            .t(", in a care home in ")
            .l(gm.city, Kind::Address)
            .t("\n");
    } else {
        b.t(&format!(
            " (maternal grandmother), d. {} at {} of ovarian ca (dx late 60s)\n",
            r.range(1985, 2015),
            r.range(61, 88)
        ));
    }
    let mo = person(r);
    b.t("  II-1  ").l(mo.first, Kind::Person).t(" (mother), ");
    b.t(&format!(
        "{}, breast ca at {}, BRCA status unknown\n",
        r.range(55, 80),
        r.range(38, 52)
    ));
    let aunt = person(r);
    b.t("  II-3  ")
        .l(&format!("{} {}", aunt.first, aunt.last), Kind::Person);
    b.t(&format!(
        " (maternal aunt), dx {} at 49, d. {}\n",
        r.pick(&[
            "ovarian HGSC",
            "pancreatic adenoca",
            "triple-negative breast ca"
        ]),
        r.range(50, 60)
    ));
    let sib = person(r);
    b.t("  III-2 ").l(&sib.first.to_uppercase(), Kind::Person);
    b.t(&format!(
        " (sister), {}, unaffected, tel. ",
        r.range(25, 50)
    ));
    b.l(&new_phone(r), Kind::Phone).t("\n");
    b.t("  III-1 proband ►\n\nPlan: 84-gene panel (BRCA1, BRCA2, PALB2, ATM, CHEK2, RAD51C); requisition REQ-");
    b.t(&r.digits(8));
    b.t(", CPT 81162 and 81479, ICD-10 Z80.3, Z80.41. Cascade testing letter for relatives to be mailed to ");
    addr(&mut b, p, ", ");
    b.t(&format!(".\nResults expected in 2–3 weeks; disclosure visit to be booked by phone.\n\nCounsellor: {} {}, MS, CGC (NPI {})\n", STAFF[6].0, STAFF[6].1, npi(r)));
    b
}

fn ivf(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    let partner = person(r);
    b.t("Subject: Cycle ")
        .t(&r.range(1, 4).to_string())
        .t(" calendar – ");
    b.l(p.last, Kind::Person)
        .t("/")
        .l(partner.last, Kind::Person)
        .t("\n\n");
    b.t("Hi ")
        .l(p.first, Kind::Person)
        .t(" and ")
        .l(partner.first, Kind::Person)
        .t(",\n\n");
    b.t("Baseline ultrasound and estradiol went well. Your schedule:\n  • Stims (Gonal-f 225 IU + Menopur 75 IU) start ");
    b.l(&vdate(r), Kind::Date);
    b.t("\n  • Trigger (Ovidrel 250 mcg) at exactly 9:45 PM two nights before retrieval\n  • Egg retrieval ");
    b.l(&vdate(r), Kind::Date)
        .t(" at 7:30 AM, arrive fasting\n");
    b.t("  • Partner semen sample the same morning (partner chart ");
    b.l(&format!("CFP-{}", r.digits(6)), Kind::Mrn).t(")\n\n");
    b.t("Patient chart: ")
        .l(&format!("CFP-{}", r.digits(6)), Kind::Mrn);
    b.t("   Partner DOB: ")
        .l(&date(r, partner.dob), Kind::Date)
        .t("\n");
    b.t(&format!(
        "Embryos will be stored in tank 4, canister {}, cane {} (lot GM-{} media).\n",
        r.pick(&["A", "B", "C"]),
        r.range(1, 30),
        r.digits(5)
    ));
    b.t(&format!("Insurance: {} member ID ", PAYERS[0]));
    b.l(
        &format!("MCH{}{}", r.letters(1), r.digits(8)),
        Kind::HealthPlan,
    );
    b.t("; please bring a photo ID (the driver's licence on file is ");
    b.l(
        &format!("{}{}-{}", r.letters(1), r.digits(4), r.digits(5)),
        Kind::License,
    );
    b.t(").\nQuestions: nurse line ")
        .l(&new_phone(r), Kind::Phone);
    b.t(", after hours ").l(&new_phone(r), Kind::Phone);
    b.t(&format!(
        "\n\nWarmly,\n{} {}, RN, IVF coordinator\n{}\n",
        STAFF[4].0, STAFF[4].1, PRACTICES[3]
    ));
    b
}

fn pathology(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t(&format!(
        "{}\nDEPARTMENT OF PATHOLOGY — SURGICAL PATHOLOGY REPORT\n\nAccession: ",
        PRACTICES[10]
    ));
    b.l(&format!("S{}-{}", r.range(25, 26), r.digits(5)), Kind::Mrn);
    b.t("        Collected: ").l(&us(&visit(r)), Kind::Date);
    b.t("  Received: ")
        .l(&us(&visit(r)), Kind::Date)
        .t("\nPatient: ");
    b.l(&p.last.to_uppercase(), Kind::Person)
        .t(", ")
        .l(&p.first.to_uppercase(), Kind::Person);
    b.t("      MRN: ").l(&r.digits(8), Kind::Mrn);
    b.t("\nDOB: ").l(&us(&p.dob), Kind::Date);
    b.t(&format!(
        " (Age: {})  Sex: {}  Location: 5 North, room ",
        2026 - p.dob.0,
        if p.female { "F" } else { "M" }
    ));
    b.l(&format!("5{}", r.digits(2)), Kind::Room);
    b.t(&format!(
        "\nSubmitting: {}    Copy to: {} (fax ",
        staff(r),
        staff(r)
    ));
    b.l(&new_phone(r), Kind::Fax).t(")\n\n");
    b.t("SPECIMEN(S):\n A. Sigmoid colon, segmental resection\n B. Lymph nodes, mesenteric\n\nFINAL DIAGNOSIS:\n A. Invasive adenocarcinoma, moderately differentiated, pT3 N1a; margins negative.\n B. One of 17 lymph nodes positive (1/17).\n\n");
    b.t(&format!(
        "Block A4 sent for MMR IHC (order ORD{}). CPT 88309, 88342 x4; ICD-10 C18.7.\n",
        r.digits(7)
    ));
    b.t("Electronically signed by ").t(&staff(r)).t(", MD on ");
    b.l(&vdate(r), Kind::Date).t(" at 14:22\n");
    b
}

fn bloodbank(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t("TRANSFUSION SERVICE — BLOOD PRODUCT ISSUE SLIP\n\nRecipient: ");
    b.l(p.last, Kind::Person).t(", ").l(p.first, Kind::Person);
    b.t("\nMRN ")
        .l(&format!("{}-{}", r.digits(3), r.digits(4)), Kind::Mrn);
    b.t("    Blood bank armband: ")
        .l(&format!("BB{}{}", r.letters(2), r.digits(5)), Kind::Mrn);
    b.t(&format!("\n{} ", dob_label(r)))
        .l(&date(r, p.dob), Kind::Date)
        .t("   ABO/Rh: ");
    b.t(r.pick(&["O POS", "A NEG", "B POS", "AB POS", "O NEG"]));
    b.t("   Antibody screen: NEG\n");
    b.t(&format!(
        "Product: RBC, leukoreduced, irradiated   Product code E{}V00   Volume 310 mL\n",
        r.digits(4)
    ));
    b.t("Unit expires: ").l(&vdate(r), Kind::Date);
    b.t("   Crossmatch: compatible (electronic)\nIssued to: ICU bed ");
    b.l(
        &format!("{}{}", r.range(1, 24), r.pick(&["A", "B", ""])),
        Kind::Room,
    );
    b.t(&format!(" at 13:05 by MLS {}\n", staff(r)));
    b.t(&format!(
        "Bedside verification: {} RN / {} RN   Start 13:21   Pre-vitals T 36.8 P 92 BP 104/61\n",
        staff(r),
        staff(r)
    ));
    b.t("Return unused units within 30 min. Blood bank ext. 4-4120, direct ");
    b.l(&new_phone(r), Kind::Phone).t("\n");
    b
}

/// An insulin pump's own export: a header block of `key: value` lines, then US-dated rows.
fn pump(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t("InsuLink pump report (CSV)\nName: ");
    b.l(&p.last.to_uppercase(), Kind::Person)
        .t(", ")
        .l(&p.first.to_uppercase(), Kind::Person);
    b.t(&format!("\n{}: ", dob_label(r).trim_end_matches(':')))
        .l(&us(&p.dob), Kind::Date);
    b.t("\nSerial Number: ")
        .l(&format!("NG{}{}", r.digits(7), r.letters(1)), Kind::Device);
    b.t(&format!(
        "\nModel: MMT-{}  Firmware 8.{}.{}\nReport range: ",
        r.range(600, 790),
        r.range(0, 9),
        r.range(0, 9)
    ));
    let v = visit(r);
    let end = (v.0, v.1, (v.2 + 6).min(28));
    b.l(&us(&v), Kind::Date).t(" - ").l(&us(&end), Kind::Date);
    b.t(&format!(
        "\nBasal profile: 0.{} U/h 00:00-06:00, 0.{} U/h 06:00-24:00; ISF 1:{}; ICR 1:{}\n\nIndex;Date;Time;BG Reading (mg/dL);Bolus Volume Delivered (U);Alarm\n",
        r.range(5, 9),
        r.range(6, 9),
        r.range(30, 60),
        r.range(8, 15)
    ));
    for i in 0..r.range(2, 3) {
        let d = (v.0, v.1, (v.2 + i).min(28));
        b.t(&format!("{};", r.range(100, 999)))
            .l(&us(&d), Kind::Date);
        b.t(&format!(
            ";{:02}:{:02};{};{}.{};{}\n",
            r.range(0, 23),
            r.range(0, 59),
            r.range(60, 300),
            r.range(0, 9),
            r.range(0, 9),
            r.pick(&["", "", "LOW BG", "RESERVOIR LOW"])
        ));
    }
    b.t(&format!("Uploaded to {} by ", PRACTICES[1]))
        .l(&email(r, p), Kind::Email)
        .t("\n");
    b
}

fn cgm(r: &mut Rng, p: &P) -> B {
    if r.chance(40) {
        return pump(r, p);
    }
    let mut b = B::new();
    b.t("# GlucoTrack Clarity export v3.2.1\nPatient Name,");
    b.l(&p.full(), Kind::Person)
        .t("\nDate of Birth,")
        .l(&iso(&p.dob), Kind::Date);
    b.t("\nSensor Serial,")
        .l(&format!("{}{}", r.letters(2), r.digits(8)), Kind::Device);
    b.t("\nTransmitter ID,")
        .l(&format!("8{}{}", r.letters(2), r.digits(3)), Kind::Device);
    b.t("\nPump,Tandara t:slim-X3 SN ")
        .l(&r.digits(9), Kind::Device);
    b.t("\nClinic,").t(PRACTICES[1]).t("\nExported,");
    let v = visit(r);
    b.l(&iso(&v), Kind::Date).t(" 06:10\n\nTimestamp (YYYY-MM-DDThh:mm:ss),Event Type,Glucose Value (mg/dL),Insulin Value (u),Carb Value (grams)\n");
    for _ in 0..r.range(2, 4) {
        let d = (v.0, v.1, r.range(1, 28));
        b.l(&iso(&d), Kind::Date);
        b.t(&format!(
            "T{:02}:{:02}:00,",
            r.range(0, 23),
            r.range(0, 59) / 5 * 5
        ));
        match r.below(3) {
            0 => b.t(&format!("EGV,{},,\n", r.range(55, 320))),
            1 => b.t(&format!("Insulin,,{}.{},\n", r.range(1, 9), r.range(0, 9))),
            _ => b.t(&format!("Carbs,,,{}\n", r.range(10, 90))),
        };
    }
    b
}

fn cardiac(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t(&format!(
        "{} — Remote Device Transmission\n\nPatient: ",
        PRACTICES[5]
    ));
    name(r, &mut b, p);
    b.t(&format!("   {} ", dob_label(r)))
        .l(&date(r, p.dob), Kind::Date);
    b.t("   Patient ID: ")
        .l(&format!("NHR{}", r.digits(6)), Kind::Mrn);
    b.t(&format!(
        "\nDevice: {} model {}{}, serial ",
        r.pick(&[
            "dual-chamber ICD",
            "CRT-D",
            "dual-chamber pacemaker",
            "leadless pacemaker"
        ]),
        r.pick(&["DR", "XT", "AV"]),
        r.range(100, 990)
    ));
    b.l(
        &format!("{}{}{}", r.letters(3), r.digits(6), r.letters(1)),
        Kind::Device,
    );
    let implanted = (r.range(2015, 2024), r.range(1, 12), r.range(1, 28));
    b.t("\nImplanted: ").l(&date(r, implanted), Kind::Date);
    b.t(&format!(
        "   RV lead model 5076-{} serial ",
        r.range(45, 58)
    ));
    b.l(&format!("PJN{}V", r.digits(6)), Kind::Device);
    b.t("\nTransmission received ").l(&vdate(r), Kind::Date);
    b.t(" 03:12 from bedside monitor S/N ")
        .l(&r.digits(10), Kind::Device);
    b.t(&format!(
        "\n\nBattery: {}.{} years. AP {}%, VP {}%. Impedance RA 512 Ω, RV 448 Ω.\n",
        r.range(4, 11),
        r.range(0, 9),
        r.range(10, 90),
        r.range(0, 5)
    ));
    b.t(&format!(
        "Events: {} AHRE episodes, longest 00:0{}:12; no VT/VF therapies.\n",
        r.range(1, 9),
        r.range(1, 9)
    ));
    b.t("Next remote check ").l(&vdate(r), Kind::Date);
    b.t(&format!(". Reviewed by {}, NP. Device clinic ", staff(r)));
    b.l(&new_phone(r), Kind::Phone)
        .t(", fax ")
        .l(&new_phone(r), Kind::Fax)
        .t("\n");
    b
}

/// A Python worker's log with a traceback and an access-log line: the patient's fields in a
/// dict repr, a request path carrying the MRN and date of birth (labelled piece by piece).
fn applog_py(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    let v = visit(r);
    let mon = &MONTHS[v.1 as usize - 1][..3];
    b.l(&iso(&v), Kind::Date);
    b.t(&format!(
        " {:02}:{:02}:17,448 ERROR [reminders.worker] failed to render template for {{'first_name': '",
        r.range(0, 23),
        r.range(10, 59)
    ));
    b.l(p.first, Kind::Person).t("', 'last_name': '");
    b.l(&p.last.replace('\'', "\\'"), Kind::Person)
        .t("', 'dob': datetime.date(");
    b.l(
        &format!("{}, {}, {}", p.dob.0, p.dob.1, p.dob.2),
        Kind::Date,
    )
    .t("), 'ssn': '");
    b.l(
        &format!("{}-{}-{}", r.range(100, 665), r.digits(2), r.digits(4)),
        Kind::Ssn,
    )
    .t("', 'phone': '");
    let ph = phone(r, &p.phone);
    b.l(&ph, Kind::Phone).t("', 'zip': '").l(&p.zip, Kind::Zip);
    b.t(&format!(
        "', 'appt_id': {}}}\nTraceback (most recent call last):\n  File \"/srv/reminders/worker.py\", line {}, in render\n    body = TEMPLATE.format(**ctx)\nKeyError: 'appt_time'\n",
        r.digits(7),
        r.range(40, 200)
    ));
    let mrn = r.digits(7);
    b.l(&ip(r), Kind::Ip).t(" - - [");
    b.l(&format!("{:02}/{mon}/{}", v.2, v.0), Kind::Date);
    b.t(&format!(
        ":{:02}:{:02}:18 +0000] \"GET /portal/records?mrn=",
        r.range(0, 23),
        r.range(10, 59)
    ));
    b.l(&mrn, Kind::Mrn).t("&dob=").l(&iso(&p.dob), Kind::Date);
    b.t(&format!(
        " HTTP/1.1\" 500 {} \"-\" \"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)\"\n",
        r.range(200, 900)
    ));
    b
}

fn applog(r: &mut Rng, p: &P) -> B {
    if r.chance(50) {
        return applog_py(r, p);
    }
    let mut b = B::new();
    let v = visit(r);
    let mrn = r.digits(8);
    b.l(&iso(&v), Kind::Date);
    b.t(&format!("T{:02}:{:02}:17.448Z ERROR portal.api.appointments request failed {{\"route\":\"/api/v2/patients/", r.range(0, 23), r.range(10, 59)));
    b.l(&mrn, Kind::Mrn)
        .t("/appointments\",\"status\":500,\"user\":\"");
    b.l(&email(r, p), Kind::Email).t("\",\"patient_name\":\"");
    b.l(&p.full(), Kind::Person)
        .t("\",\"dob\":\"")
        .l(&iso(&p.dob), Kind::Date);
    b.t("\",\"remote_addr\":\"").l(&ip(r), Kind::Ip);
    b.t(&format!(
        "\",\"trace_id\":\"{:x}\",\"build\":\"4.12.{}.{}\"}}\n",
        r.next() >> 16,
        r.range(0, 9),
        r.range(100, 999)
    ));
    b.t("level=warn ts=").l(&iso(&v), Kind::Date);
    b.t(&format!(
        "T{:02}:{:02}:18Z caller=sms.go:{} msg=\"send failed\" to=",
        r.range(0, 23),
        r.range(10, 59),
        r.range(40, 400)
    ));
    b.l(&format!("+1{}", p.phone), Kind::Phone)
        .t(" pt=\"")
        .l(p.first, Kind::Person)
        .t(" ")
        .l(p.last, Kind::Person);
    b.t("\" mrn=")
        .l(&mrn, Kind::Mrn)
        .t(" err=\"carrier 30007\" retry=3\n");
    b.t("thread 'claims-worker-3' panicked at src/claims/submit.rs:214:9:\ninvalid member id \"");
    b.l(
        &format!("{}{}", r.letters(3), r.digits(9)),
        Kind::HealthPlan,
    )
    .t("\" for subscriber ");
    b.l(&p.last.to_uppercase(), Kind::Person)
        .t("^")
        .l(&p.first.to_uppercase(), Kind::Person);
    b.t(&format!("\nnote: run with `RUST_BACKTRACE=1` to see a backtrace\n    at com.kestrel.billing.StatementJob.run(StatementJob.java:{})\n", r.range(40, 300)));
    b
}

fn sqldump(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t("-- pg_dump excerpt attached to ticket OPS-");
    b.t(&r.digits(4));
    b.t("\nINSERT INTO patients (id, mrn, last_name, first_name, dob, ssn, phone, email, addr1, city, state, zip) VALUES\n");
    let q = r.range(1, 2);
    let mut pid = String::new();
    for i in 0..q {
        let x = if i == 0 { copy(p) } else { person(r) };
        let id = r.digits(5);
        b.t("  (").l(&id, Kind::Mrn).t(", '");
        if i == 0 {
            pid = id;
        }
        b.l(&format!("KV{}", r.digits(7)), Kind::Mrn).t("', '");
        b.l(&x.last.replace('\'', "''"), Kind::Person)
            .t("', '")
            .l(x.first, Kind::Person)
            .t("', '");
        b.l(&iso(&x.dob), Kind::Date).t("', ");
        if r.chance(50) {
            b.t("'")
                .l(&format!("{}{}", r.range(100, 665), r.digits(6)), Kind::Ssn)
                .t("', '");
        } else {
            b.t("NULL, '");
        }
        let ph = phone(r, &x.phone);
        b.l(&ph, Kind::Phone)
            .t("', '")
            .l(&email(r, &x), Kind::Email)
            .t("', '");
        b.l(&x.street, Kind::Address)
            .t("', '")
            .l(&x.city.replace('\'', "''"), Kind::Address);
        b.t(&format!("', '{}', '", x.state)).l(&x.zip, Kind::Zip);
        b.t(if i + 1 == q { "');\n" } else { "'),\n" });
    }
    b.t("INSERT INTO encounters (id, patient_id, seen_on, dx, cpt, npi, room) VALUES\n  (");
    b.t(&format!("{}, ", r.digits(6)))
        .l(&pid, Kind::Mrn)
        .t(", '");
    b.l(&iso(&visit(r)), Kind::Date);
    b.t(&format!("', 'E11.65', '99214', '{}', '", npi(r)));
    b.l(&format!("{}", r.range(100, 480)), Kind::Room);
    b.t("');\n");
    b
}

fn copy(p: &P) -> P {
    P {
        first: p.first,
        last: p.last,
        dob: p.dob,
        phone: p.phone.clone(),
        street: p.street.clone(),
        city: p.city,
        state: p.state,
        zip: p.zip.clone(),
        female: p.female,
    }
}

fn links(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t(&format!(
        "From: {} <noreply@brightwaterfamily.org>\nTo: ",
        PRACTICES[1]
    ));
    b.l(&email(r, p), Kind::Email)
        .t("\nSubject: Your test results are ready\n\nHi ");
    b.l(p.first, Kind::Person)
        .t(",\n\nNew results were released to your chart on ");
    b.l(&vdate(r), Kind::Date).t(". View them here:\n");
    let mrn = r.digits(8);
    let tok = format!("{:x}", r.next());
    let url = match r.below(3) {
        0 => format!(
            "https://click.brightwaterfamily.org/ls/click?upn={tok}&redirect=https%3A%2F%2Fportal.brightwaterfamily.org%2Fresults%3Fpatient%3D{mrn}%26src%3Demail"
        ),
        1 => format!(
            "https://portal.brightwaterfamily.org/results?patient={mrn}&lab=CMP&utm_source=email&utm_campaign=results"
        ),
        _ => format!(
            "https://bwfh.link/r/{mrn}?dob={}&t={tok}",
            iso(&p.dob).replace('-', "")
        ),
    };
    b.l(&url, Kind::Url);
    b.t("\n\nIf the link does not work, sign in at https://portal.brightwaterfamily.org/ and open Test Results.\nQuestions? Call ");
    b.l(&new_phone(r), Kind::Phone);
    b.t(".\n\nTo stop these emails: https://brightwaterfamily.org/preferences (no sign-in needed)\nSent to ");
    addr(&mut b, p, ", ");
    b.t("\n");
    b
}

fn foster(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    let dob = child_dob(r);
    let (fp1, fp2) = (person(r), person(r));
    let bm = person(r);
    b.t("COUNTY FOSTER CARE — HEALTH PASSPORT (confidential)\n\nChild: ");
    let nick = NICK.iter().find(|(f, _)| *f == p.first).map(|(_, n)| *n);
    b.l(p.first, Kind::Person);
    if let Some(nick) = nick {
        b.t(" \"").l(nick, Kind::Person).t("\"");
    }
    b.t(" ")
        .l(p.last, Kind::Person)
        .t("   DOB: ")
        .l(&date(r, dob), Kind::Date);
    b.t("\nMedicaid ID: ").l(
        &format!("{}{}", r.digits(9), r.letters(1)),
        Kind::HealthPlan,
    );
    b.t("   Clinic chart #: ").l(&r.digits(7), Kind::Mrn);
    b.t("   SSN: ").l(
        &format!("{}-{}-{}", r.range(100, 665), r.digits(2), r.digits(4)),
        Kind::Ssn,
    );
    b.t("\nPlacement since ")
        .l(&vdate(r), Kind::Date)
        .t(" with foster parents ");
    b.l(&fp1.full(), Kind::Person)
        .t(" and ")
        .l(fp2.first, Kind::Person)
        .t(" ")
        .l(fp1.last, Kind::Person);
    b.t(", ");
    addr(&mut b, &fp1, ", ");
    b.t("; home ").l(&phone(r, &fp1.phone), Kind::Phone);
    b.t("\nBirth mother: ").l(&bm.full(), Kind::Person);
    b.t(" (visits supervised; do not release records to her). Adoption finalization hearing set for ");
    b.l(&vdate(r), Kind::Date);
    b.t(&format!(".\n\nImmunizations up to date per state registry. Well-child visit: growth 40th percentile, Hgb 11.9, lead <3.\nCaseworker: {} (county), ph ", staff(r)));
    b.l(&new_phone(r), Kind::Phone)
        .t(&format!("\nPCP: {}, {}\n", staff(r), PRACTICES[0]));
    b
}

fn student(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    let fl = format!(
        "{}.{}",
        ascii(p.first).to_lowercase(),
        ascii(p.last).to_lowercase().replace([' ', '\'', '.'], "")
    );
    b.t(&format!(
        "From: {} <shs-nurse@pinecrest.edu>\nTo: ",
        PRACTICES[7]
    ));
    b.l(&format!("{fl}@students.pinecrest.edu"), Kind::Email);
    b.t("\nSubject: Follow-up after your visit on ")
        .l(&vdate(r), Kind::Date);
    b.t("\n\nHi ").l(p.first, Kind::Person).t(",\n\n");
    b.t("Your throat culture came back positive for group A strep. A prescription for amoxicillin 500 mg BID x10 days was sent to the campus pharmacy. Please stay out of class for 24 hours after the first dose.\n\n");
    b.t("Housing asked us to confirm your room for the cleaning crew: ");
    b.t(r.pick(&[
        "Hollister Hall",
        "Weatherby House",
        "Quad C",
        "Marston Tower",
    ]));
    b.t(" room ")
        .l(&format!("{}{}", r.range(1, 9), r.digits(2)), Kind::Room)
        .t(".\n");
    b.t("SHS chart no. ")
        .l(&format!("SHS-{}", r.digits(6)), Kind::Mrn);
    b.t(" | Student insurance member ID ")
        .l(&format!("PUS{}", r.digits(9)), Kind::HealthPlan);
    b.t("\nYour emergency contact on file is ");
    let m = person(r);
    b.l(&m.full(), Kind::Person)
        .t(" (parent), ")
        .l(&phone(r, &m.phone), Kind::Phone);
    b.t(".\n\nFeel better,\n")
        .t(&format!("{} {}", STAFF[10].0, STAFF[10].1))
        .t(", RN\nStudent Health Services, open weekdays 8–5\n");
    b
}

fn military(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t("VETERANS HEALTH — COMMUNITY CARE CONSULT\n\nVeteran: ");
    b.l(&p.last.to_uppercase(), Kind::Person)
        .t(", ")
        .l(&p.first.to_uppercase(), Kind::Person);
    b.t(" ")
        .l(&r.letters(1), Kind::Person)
        .t(".\nICN: ")
        .l(&format!("10{}V{}", r.digits(8), r.digits(6)), Kind::Mrn);
    if r.chance(50) {
        b.t("   SSN: ").l(
            &format!("{}-{}-{}", r.range(100, 665), r.digits(2), r.digits(4)),
            Kind::Ssn,
        );
    } else {
        b.t("   Last 4: withheld");
    }
    if r.chance(30) {
        // Korea-era veterans.
        let dob = old_dob(r);
        b.t(&format!("   {} ", dob_label(r)))
            .l(&date(r, dob), Kind::Date)
            .t("   Age: ")
            .l(&(2026 - dob.0).to_string(), Kind::Age);
    } else {
        b.t(&format!("   {} ", dob_label(r)))
            .l(&date(r, p.dob), Kind::Date);
    }
    b.t(&format!(
        "\nBranch: {}, {} (ret.)   Unit at separation: {}\n",
        r.pick(&["USMC", "US Army", "USN", "USAF", "USCG"]),
        r.pick(&["E-6", "O-3", "E-7", "W-2"]),
        r.pick(&[
            "2nd Bn, 5th Marines",
            "101st Airborne, 3rd BCT",
            "VFA-41",
            "HSC-8"
        ])
    ));
    b.t("TRICARE DBN: ").l(&r.digits(11), Kind::HealthPlan);
    b.t("\nService connected 70% (PTSD, tinnitus, L knee). Burn-pit registry: enrolled.\n");
    b.t("Address on file: ");
    addr(&mut b, p, ", ");
    b.t("\nPhone: ").l(&phone(r, &p.phone), Kind::Phone);
    if r.chance(50) {
        let sp = person(r);
        b.t("   Spouse/caregiver: ")
            .l(sp.first, Kind::Person)
            .t(" ")
            .l(p.last, Kind::Person);
    }
    b.t("\nC&P exam scheduled ").l(&vdate(r), Kind::Date);
    b.t(&format!(
        " 0900 at {}. Authorization {}-{}; SEOC 1.9.4.\n",
        PRACTICES[10],
        r.letters(2),
        r.digits(6)
    ));
    b.t("Consult routed by ").t(&staff(r)).t(", MSA.\n");
    b
}

fn adaclaim(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    let kid = person(r);
    let kdob = child_dob(r);
    b.t("ADA Dental Claim Form — field dump\n");
    b.t(&format!(
        "1. Type of Transaction: Statement of Actual Services\n3. Company/Plan Name: {}\n",
        PAYERS[2]
    ));
    b.t("12. Policyholder/Subscriber Name, Address: ");
    b.l(&p.last.to_uppercase(), Kind::Person)
        .t(" ")
        .l(&p.first.to_uppercase(), Kind::Person)
        .t(" | ");
    addr(&mut b, p, " | ");
    b.t("\n13. Date of Birth (MM/DD/CCYY): ")
        .l(&us(&p.dob), Kind::Date);
    b.t(&format!(
        "   14. Gender: {}\n15. Policyholder/Subscriber ID: ",
        if p.female { "F" } else { "M" }
    ));
    b.l(
        &format!("{}{}", r.letters(1), r.digits(10)),
        Kind::HealthPlan,
    );
    b.t(&format!("   16. Plan/Group Number: G-{}\n", r.digits(5)));
    b.t("20. Patient Name: ")
        .l(kid.first, Kind::Person)
        .t(" ")
        .l(p.last, Kind::Person);
    b.t("   21. DOB: ")
        .l(&us(&kdob), Kind::Date)
        .t("   18. Relationship: Dependent Child\n");
    b.t("24. Procedure Date   Tooth  Surf  Code   Fee\n    ");
    b.l(&us(&visit(r)), Kind::Date);
    b.t(&format!(
        "     {}     MOD   D2393  245.00\n    ",
        r.range(2, 31)
    ));
    b.l(&us(&visit(r)), Kind::Date);
    b.t("     --     --    D1120   68.00\n");
    b.t(&format!(
        "48. Billing Dentist: {} DDS, {}\n49. NPI {}   51. TIN {}-{}\n",
        staff(r),
        PRACTICES[0],
        npi(r),
        r.digits(2),
        r.digits(7)
    ));
    b.t("Patient portion charged to card ")
        .l(&luhn_card(r), Kind::Card);
    b.t(&format!(" exp {:02}/{}\n", r.range(1, 12), r.range(27, 31)));
    b
}

fn chiro(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t(&format!("{} — Daily SOAP note\nPatient: ", PRACTICES[6]));
    name(r, &mut b, p);
    b.t(&format!("   {} ", dob_label(r)))
        .l(&date(r, p.dob), Kind::Date);
    b.t("   Acct ").l(&r.digits(6), Kind::Account);
    b.t("\nDOS: ")
        .l(&vdate(r), Kind::Date)
        .t("   Visit 6 of 12\n\n");
    b.t("S: Low back pain 5/10 (was 7/10). Rear-ended on ");
    b.l(&vdate(r), Kind::Date)
        .t(" while driving her/his sedan, plate ");
    b.l(
        &format!("{}{}{}", r.digits(1), r.letters(3), r.digits(3)),
        Kind::Vehicle,
    );
    if r.chance(50) {
        b.t(", VIN ").l(
            &format!(
                "{}{}{}{}{}",
                r.digits(1),
                r.letters(4),
                r.digits(2),
                r.letters(2),
                r.digits(8)
            ),
            Kind::Vehicle,
        );
    }
    b.t(". Sleeping better; sitting tolerance 45 min.\n");
    b.t("O: L4-L5 and SI restriction; lumbar flexion 60° (norm 90°); SLR neg bilat; Kemp's + R.\n");
    b.t("A: M99.03, M54.50, S33.5XXD — improving.\n");
    b.t("P: CMT 98940, 97140 x2, 97110 x1. RTC Thursday. Home stretches given.\n\n");
    b.t(&format!("Auto PIP: {} claim # ", PAYERS[3]));
    b.l(
        &format!("{}-{}-{}", r.digits(2), r.digits(6), r.digits(2)),
        Kind::Account,
    );
    b.t(", adjuster line ").l(&new_phone(r), Kind::Phone);
    b.t("\nPt cell ").l(&phone(r, &p.phone), Kind::Phone);
    b.t(&format!("\nProvider: {}, DC\n", staff(r)));
    b
}

fn speech(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    let kdob = child_dob(r);
    let par = person(r);
    b.t(&format!(
        "{}\nSpeech-Language Therapy — Progress Note\n\nClient: ",
        PRACTICES[4]
    ));
    b.l(p.first, Kind::Person).t(" ").l(p.last, Kind::Person);
    b.t(&format!("   {} ", dob_label(r)))
        .l(&date(r, kdob), Kind::Date)
        .t(&format!("   Age: {};{}\n", 2026 - kdob.0, r.range(0, 11)));
    b.t("Session: ")
        .l(&vdate(r), Kind::Date)
        .t(", 45 min, therapy room ");
    b.l(&r.range(1, 14).to_string(), Kind::Room).t("\n");
    b.t("Parent present: ")
        .l(par.first, Kind::Person)
        .t(" (mother)\n\n");
    b.t("Goals:\n 1. Produce /r/ in initial position at word level with 80% accuracy — 14/20 (70%).\n 2. Follow 2-step directions without visual cues — met 4/5 trials.\n");
    b.t(&format!(
        " 3. Reduce stuttering-like disfluencies (SSI-4 score {} → {}).\n\n",
        r.range(18, 30),
        r.range(10, 17)
    ));
    b.t("Home program emailed to ")
        .l(&email(r, &par), Kind::Email);
    b.t(&format!(
        ". Teacher at {} Elementary reports fewer repetitions in class.\n",
        r.pick(&["Foxhollow", "Birchmont", "Sandcastle", "Orchard Park"])
    ));
    b.t(&format!(
        "CPT 92507; F80.0, F80.81. Medicaid PA #{} valid through June.\n",
        r.digits(8)
    ));
    b.t("Next session next Tuesday. Parent cell ")
        .l(&phone(r, &par.phone), Kind::Phone);
    b.t(&format!("\n{}, M.S., CCC-SLP\n", staff(r)));
    b
}

fn travel(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t("INTERNATIONAL CERTIFICATE OF VACCINATION OR PROPHYLAXIS\nCERTIFICAT INTERNATIONAL DE VACCINATION OU DE PROPHYLAXIE\n\n");
    b.t("This is to certify that [name] ")
        .l(&p.first.to_uppercase(), Kind::Person)
        .t(" ");
    b.l(&p.last.to_uppercase(), Kind::Person);
    b.t("\ndate of birth ").l(&date(r, p.dob), Kind::Date);
    b.t(&format!(
        "  sex {}  nationality USA\nnational identification document, if applicable: passport ",
        if p.female { "F" } else { "M" }
    ));
    b.l(
        &format!("{}{}", r.pick(&["5", "A", "C"]), r.digits(8)),
        Kind::License,
    );
    b.t("\nhas on the date indicated been vaccinated against: YELLOW FEVER\n");
    b.t("Date: ").l(&vdate(r), Kind::Date);
    b.t(&format!(
        "  Vaccine: YF-VAX  Lot UJ{}AA  Valid from 10 days after, for life of person\n",
        r.digits(3)
    ));
    b.t(&format!(
        "Official stamp: {} (center #{})\n\n",
        PRACTICES[9],
        r.digits(4)
    ));
    b.t("Also given today: Typhim Vi (NDC 49281-790-20), hep A #1, rabies PrEP dose 1 of 2. Malarone 250/100 mg x 24 tabs.\n");
    b.t("Trip: Lima → Cusco → Iquitos, departs in three weeks. Paid by card ");
    b.l(&luhn_card(r), Kind::Card)
        .t("; receipt emailed to ")
        .l(&email(r, p), Kind::Email)
        .t("\n");
    b
}

/// A crisis-line call as speech-to-text: no punctuation, no case, numbers as said.
fn crisis_call(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    let gp = person(r);
    b.t("call log warmline queue 2 speech to text auto\n");
    b.t("counselor thanks for calling youre not alone whats going on tonight\n");
    b.t("caller its my grandpa ")
        .l(&gp.first.to_lowercase(), Kind::Person);
    let gdob = old_dob(r);
    b.t(" hes ").l(&(2026 - gdob.0).to_string(), Kind::Age);
    b.t(" and he keeps saying he doesnt want to be here anymore i live with him at ");
    b.l(&p.street.to_lowercase(), Kind::Address).t(" out past ");
    b.l(&p.city.to_lowercase(), Kind::Address).t("\n");
    b.t("counselor what is your name\ncaller ")
        .l(&p.first.to_lowercase(), Kind::Person);
    b.t(" ").l(&p.last.to_lowercase(), Kind::Person);
    b.t(" my number is ");
    let d = &p.phone;
    b.l(
        &format!("{} {} {}", &d[..3], &d[3..6], &d[6..]),
        Kind::Phone,
    );
    b.t("\ncounselor does he have access to firearms or his medications\ncaller he has his pills the ones from the va his birthday was ");
    let (y, m, day) = gdob;
    b.l(
        &format!(
            "{} {}{} {}",
            MONTHS[m as usize - 1].to_lowercase(),
            day,
            ord(day),
            y
        ),
        Kind::Date,
    );
    b.t(" and since then hes been like this\ncounselor ok im going to stay on the line while we connect you with the mobile team\n");
    b
}

fn crisis(r: &mut Rng, p: &P) -> B {
    if r.chance(40) {
        return crisis_call(r, p);
    }
    let mut b = B::new();
    let f = p.first.to_lowercase();
    let l = p.last.to_lowercase();
    let sib = person(r);
    b.t("[chat transcript, crisis line, counselor id C-114]\n");
    b.t("[01:58] visitor: hi um i dont know if im supposed to message here\n");
    b.t("[01:58] counselor: im glad you reached out. what should i call you\n");
    b.t("[01:59] visitor: ").l(&f, Kind::Person);
    if r.chance(60) {
        b.t(" ").l(&l, Kind::Person);
    }
    b.t(" i guess. i havent slept in like 3 days\n");
    b.t("[02:01] counselor: thank you ")
        .l(&f, Kind::Person)
        .t(". are you safe right now\n");
    b.t("[02:03] visitor: im in my car outside my apartment on ")
        .l(&p.street.to_lowercase(), Kind::Address);
    b.t(" in ")
        .l(&p.city.to_lowercase(), Kind::Address)
        .t(" its the grey honda plate ");
    b.l(
        &format!("{}{}", r.letters(3), r.digits(4)).to_lowercase(),
        Kind::Vehicle,
    );
    b.t("\n[02:04] counselor: is there someone who could be with you tonight\n");
    b.t("[02:06] visitor: my sister ")
        .l(&sib.first.to_lowercase(), Kind::Person);
    b.t(" maybe her number is ")
        .l(&phone(r, &sib.phone), Kind::Phone);
    b.t(" but its late\n[02:07] visitor: my bday was on ");
    let (_, m, d) = p.dob;
    b.l(
        &format!("{} {}", MONTHS[m as usize - 1].to_lowercase(), d),
        Kind::Date,
    );
    b.t(" and nobody called\n[02:09] counselor: that sounds really lonely. can we make a safety plan together\n");
    b.t("[02:15] counselor: warm transfer to mobile crisis team, callback ")
        .l(&phone(r, &p.phone), Kind::Phone);
    b.t("\n");
    b
}

fn europe(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    let (y, m, d) = p.dob;
    match r.below(4) {
        0 => {
            const DE: [&str; 12] = [
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
            b.t(&format!(
                "Sehr geehrte Frau Dr. {},\n\nmein Name ist ",
                STAFF[2].1
            ));
            b.l(&p.full(), Kind::Person).t(", geboren am ");
            let ds = if r.chance(50) {
                format!("{d}. {} {y}", DE[m as usize - 1])
            } else {
                format!("{d:02}.{m:02}.{y}")
            };
            b.l(&ds, Kind::Date).t(". Meine Versichertennummer lautet ");
            b.l(
                &format!("{}{}", r.letters(1), r.digits(9)),
                Kind::HealthPlan,
            );
            b.t(". Ich brauche ein neues Rezept für Ramipril 5 mg und bitte um einen Termin am ");
            b.l(
                &format!("{}.{}.", r.range(1, 28), r.range(1, 12)),
                Kind::Date,
            );
            b.t("\nSie erreichen mich unter ")
                .l(&new_phone(r), Kind::Phone);
            b.t(" oder per E-Mail an ").l(&email(r, p), Kind::Email);
            let st = format!(
                "{}{} {}",
                r.pick(&["Linden", "Birken", "Mühlen", "Kastanien", "Schiller"]),
                r.pick(&["straße", "weg", "allee"]),
                r.range(1, 120)
            );
            b.t(".\nMeine Adresse: ")
                .l(&st, Kind::Address)
                .t(", ")
                .l(&p.zip, Kind::Zip)
                .t(" ")
                .l(p.city, Kind::Address);
            b.t("\n\nMit freundlichen Grüßen\n")
                .l(&p.full(), Kind::Person)
                .t("\n");
        }
        1 => {
            const FR: [&str; 12] = [
                "janvier",
                "février",
                "mars",
                "avril",
                "mai",
                "juin",
                "juillet",
                "août",
                "septembre",
                "octobre",
                "novembre",
                "décembre",
            ];
            b.t("Bonjour docteur,\n\nJe m'appelle ")
                .l(&p.full(), Kind::Person);
            b.t(if p.female { ", née le " } else { ", né le " });
            b.l(&format!("{d} {} {y}", FR[m as usize - 1]), Kind::Date);
            b.t(". Mon numéro de dossier est ")
                .l(&format!("{}-{}", r.digits(3), r.digits(5)), Kind::Mrn);
            b.t(". Ma fille ");
            let k = person(r);
            b.l(k.first, Kind::Person)
                .t(" a de la fièvre (39,2 °C) depuis hier soir. Pouvez-vous me rappeler au ");
            b.l(&new_phone(r), Kind::Phone);
            let st = format!(
                "{} {} {}",
                r.range(1, 90),
                r.pick(&["rue des", "impasse des", "allée des"]),
                r.pick(&["Tanneurs", "Glycines", "Peupliers", "Cordiers"])
            );
            b.t(" ? J'habite au ")
                .l(&st, Kind::Address)
                .t(", ")
                .l(p.city, Kind::Address)
                .t(".\n\nMerci d'avance,\n")
                .l(p.first, Kind::Person)
                .t("\n");
        }
        2 => {
            const RU: &[(&str, &str, &str)] = &[
                ("Светлана", "Кузнецова", "Svetlana Kuznetsova"),
                ("Дмитрий", "Журавлёв", "Dmitriy Zhuravlyov"),
                ("Оксана", "Белоусова", "Oksana Belousova"),
                ("Аркадий", "Смирнов", "Arkadiy Smirnov"),
                ("Людмила", "Воронцова", "Lyudmila Vorontsova"),
                ("Тимофей", "Гаврилов", "Timofey Gavrilov"),
            ];
            const RUM: [&str; 12] = [
                "января",
                "февраля",
                "марта",
                "апреля",
                "мая",
                "июня",
                "июля",
                "августа",
                "сентября",
                "октября",
                "ноября",
                "декабря",
            ];
            let (rf, rl, lat) = r.pick(RU);
            b.t("Здравствуйте! Меня зовут ")
                .l(rf, Kind::Person)
                .t(" ")
                .l(rl, Kind::Person);
            b.t(", дата рождения ");
            let ds = if r.chance(50) {
                format!("{d} {} {y} г", RUM[m as usize - 1])
            } else {
                format!("{d:02}.{m:02}.{y}")
            };
            b.l(&ds, Kind::Date)
                .t(". Полис ОМС ")
                .l(&r.digits(16), Kind::HealthPlan);
            b.t(". Мне нужна справка для работы. Мой телефон ")
                .l(&new_phone(r), Kind::Phone);
            b.t(".\n(Transliterated for the chart: ")
                .l(lat, Kind::Person)
                .t(")\n");
        }
        _ => {
            const PL: [&str; 12] = [
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
                "grudnia",
            ];
            b.t("Dzień dobry,\nnazywam się ").l(&p.full(), Kind::Person);
            b.t(if p.female {
                ", urodzona "
            } else {
                ", urodzony "
            });
            b.l(&format!("{d} {} {y}", PL[m as usize - 1]), Kind::Date)
                .t(" r., PESEL ");
            b.l(&r.digits(11), Kind::Ssn);
            b.t(". Proszę o przesunięcie wizyty z ");
            b.l(
                &format!("{}.{:02}", r.range(1, 28), r.range(1, 12)),
                Kind::Date,
            );
            b.t(" na inny termin. Mój numer: ")
                .l(&new_phone(r), Kind::Phone);
            let st = format!(
                "ul. {} {}/{}",
                r.pick(&["Kwiatowa", "Lipowa", "Słoneczna", "Ogrodowa", "Polna"]),
                r.range(1, 80),
                r.range(1, 40)
            );
            b.t("\nAdres: ")
                .l(&st, Kind::Address)
                .t(", ")
                .l(p.city, Kind::Address)
                .t("\nPozdrawiam\n");
        }
    }
    b
}

fn asia(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    let (y, m, d) = p.dob;
    match r.below(3) {
        0 => {
            const ZH: &[(&str, &str)] = &[
                ("Wang", "Xiuying"),
                ("Zhang", "Jiahao"),
                ("Liu", "Meiling"),
                ("Chen", "Yutong"),
                ("Huang", "Zhiqiang"),
                ("Zhou", "Ruoxi"),
                ("Xu", "Haoran"),
            ];
            let (sur, given) = r.pick(ZH);
            b.t("Nin hao yisheng, wo jiao ")
                .l(sur, Kind::Person)
                .t(" ")
                .l(given, Kind::Person);
            b.t(", chusheng riqi shi ")
                .l(&format!("{y} nian {m} yue {d} ri"), Kind::Date);
            b.t(". Wo de bingli hao shi ").l(&r.digits(8), Kind::Mrn);
            b.t(". Wo xuyao xu kai Metformin 500 mg. Qing da wo de dianhua ");
            b.l(&new_phone(r), Kind::Phone)
                .t(". Wo zhu zai ")
                .l(&p.street, Kind::Address)
                .t(", ")
                .l(p.city, Kind::Address);
            b.t(". Xiexie!\n");
        }
        1 => {
            const KO: &[(&str, &str)] = &[
                ("Park", "Minseo"),
                ("Kim", "Jiwoo"),
                ("Lee", "Hyunjin"),
                ("Choi", "Seoyeon"),
                ("Jung", "Dohyun"),
                ("Kang", "Yerin"),
            ];
            let (sur, given) = r.pick(KO);
            b.t("Annyeonghaseyo, jeoneun ")
                .l(&format!("{sur} {given}"), Kind::Person);
            b.t(" imnida. Saengnyeonworil-eun ")
                .l(&format!("{y}nyeon {m}wol {d}il"), Kind::Date);
            b.t(" imnida. Eomeoni ");
            let k = person(r);
            b.l(k.first, Kind::Person).t(" ssi-ui yeyak-eul ");
            b.l(
                &format!("{}wol {}il", r.range(1, 12), r.range(1, 28)),
                Kind::Date,
            );
            b.t("-ro byeongyeong hago sipseumnida. Jeonhwa: ")
                .l(&new_phone(r), Kind::Phone);
            b.t(", imeil: ").l(&email(r, p), Kind::Email).t("\n");
        }
        _ => {
            const AR: &[(&str, &str)] = &[
                ("Youssef", "Haddad"),
                ("Layla", "Mansour"),
                ("Bilal", "Abdelrahman"),
                ("Nour", "Saleh"),
                ("Hamza", "Qassem"),
                ("Rania", "Barakat"),
            ];
            let (gv, sur) = r.pick(AR);
            b.t("Marhaba doktor, ismi ")
                .l(&format!("{gv} {sur}"), Kind::Person);
            b.t(", tarikh al-milad ")
                .l(&format!("{d}/{m}/{y}"), Kind::Date);
            b.t(". Raqam al-milaf ")
                .l(&format!("MR{}", r.digits(7)), Kind::Mrn);
            b.t(". Ibni ");
            let k = person(r);
            b.l(k.first, Kind::Person)
                .t(" ʿindahu sukhuna. Raqam hatifi ")
                .l(&new_phone(r), Kind::Phone);
            b.t(". Shukran jazilan.\n");
        }
    }
    b
}

fn merge(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.l(&vdate(r), Kind::Date).t("\n\n");
    b.l(&p.first.to_uppercase(), Kind::Person)
        .t(" ")
        .l(&p.last.to_uppercase(), Kind::Person)
        .t("\n");
    b.l(&p.street.to_uppercase(), Kind::Address).t("\n");
    b.l(&p.city.to_uppercase(), Kind::Address)
        .t(&format!(" {}  ", p.state))
        .l(&p.zip, Kind::Zip)
        .t("\n\n");
    b.t(if p.female { "Dear Ms. " } else { "Dear Mr. " })
        .l(p.last, Kind::Person)
        .t(",\n\n");
    b.t(&format!(
        "Our records show you are due for your {} screening. ",
        r.pick(&[
            "colorectal cancer",
            "annual diabetic eye",
            "bone density",
            "abdominal aortic aneurysm"
        ])
    ));
    b.t("Your last visit was on ").l(&vdate(r), Kind::Date);
    b.t(". Please call ")
        .l(&new_phone(r), Kind::Phone)
        .t(" to schedule, or fax your forms to ")
        .l(&new_phone(r), Kind::Fax)
        .t(".\n\n");
    b.t("Account number: ")
        .l(&format!("{}-{}", r.digits(4), r.digits(5)), Kind::Account);
    b.t(" (please have it ready).\n");
    if r.chance(50) {
        b.t("[merge error: «Salutation» «LastName» — field not mapped for record 2 of 340]\n");
    }
    b.t(&format!(
        "\nSincerely,\n\n{}\nPopulation Health Team, {}\n",
        staff(r),
        r.pick(PRACTICES)
    ));
    b
}

fn smsopt(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    let v = visit(r);
    let wd = r.pick(&["Mon", "Tue", "Wed", "Thu", "Fri"]);
    b.t(&format!("{}: Hi ", r.pick(PRACTICES)));
    b.l(p.first, Kind::Person);
    b.t(&format!(
        ", reminder of your appt with {} on {wd} ",
        staff(r)
    ));
    b.l(&format!("{}/{}", v.1, v.2), Kind::Date);
    b.t(&format!(
        " at {}:{:02}{}. Reply C to confirm, R to reschedule. Questions: ",
        r.range(1, 12),
        r.range(0, 11) * 5,
        r.pick(&["p", "a", " PM"])
    ));
    b.l(&new_phone(r), Kind::Phone);
    b.t(". Msg&data rates may apply. Reply STOP to opt out, HELP for help.\n");
    if r.chance(60) {
        b.t("> C\n");
        b.t("Thanks! You're confirmed. Bring your card for ");
        b.l(
            &format!("{}{}", r.letters(3), r.digits(8)),
            Kind::HealthPlan,
        );
        b.t(" and arrive 15 min early. Reply STOP to end.\n");
    } else {
        b.t("> this is her husband ");
        let h = person(r);
        b.l(&h.first.to_lowercase(), Kind::Person);
        b.t(" she passed away on ").l(&vdate(r), Kind::Date);
        b.t(" please remove this number ")
            .l(&phone(r, &p.phone), Kind::Phone)
            .t("\n");
        b.t("We're so sorry for your loss. This number has been removed. You will not receive further messages.\n");
    }
    b
}

fn ivr(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    let v = visit(r);
    b.t("CALL ").l(&iso(&v), Kind::Date);
    b.t(&format!(
        " {:02}:{:02}:07 ANI=",
        r.range(8, 20),
        r.range(0, 59)
    ));
    b.l(&format!("+1{}", p.phone), Kind::Phone);
    b.t(" DNIS=").l(&format!("800{}", r.digits(7)), Kind::Phone);
    b.t(&format!(
        " site={} lang={}\n",
        PRACTICES[8],
        r.pick(&["EN", "ES"])
    ));
    b.t(&format!(
        "  menu=refill rx_entered={} rx_status=READY\n",
        r.digits(7)
    ));
    let (y, m, d) = p.dob;
    b.t("  dob_entered=")
        .l(&format!("{m:02}{d:02}{y}"), Kind::Date);
    b.t(" match=PATIENT name=\"")
        .l(&p.last.to_uppercase(), Kind::Person)
        .t(", ");
    b.l(&p.first.to_uppercase(), Kind::Person).t("\"\n");
    b.t("  asr_transcript=\"yes this is ")
        .l(&p.first.to_lowercase(), Kind::Person);
    b.t(" calling about my ").t(r.pick(&[
        "lisinopril",
        "sertraline",
        "atorvastatin",
        "levothyroxine",
    ]));
    b.t(" can somebody call me back at ")
        .l(&phone(r, &p.phone), Kind::Phone)
        .t("\"\n");
    b.t(&format!(
        "  ndc=68180-{}-{} qty=90 copay=$10.00 pickup=tomorrow after 2pm\n",
        r.digits(3),
        r.digits(2)
    ));
    b.t("  callback_number=").l(&p.phone, Kind::Phone);
    b.t(&format!(
        " disposition=REFILL_QUEUED agent={} dur=00:02:{}\n",
        staff(r).replace(' ', "_"),
        r.range(10, 59)
    ));
    b
}

fn teletype(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    let kin = person(r);
    b.t(&format!(
        "{}\nDISCHARGE SUMMARY\n\nPT: ",
        PRACTICES[10].to_uppercase()
    ));
    b.l(&p.last.to_uppercase(), Kind::Person)
        .t(", ")
        .l(&p.first.to_uppercase(), Kind::Person);
    b.t(" ").l(&r.letters(1), Kind::Person).t("   MR#: ");
    b.l(&r.digits(7), Kind::Mrn)
        .t("   ACCT: ")
        .l(&r.digits(9), Kind::Account);
    b.t("   RM: ").l(
        &format!("{}-{}", r.range(200, 699), r.pick(&["A", "B", "W"])),
        Kind::Room,
    );
    let adm = visit(r);
    let dc = (adm.0, adm.1, (adm.2 + r.range(0, 3)).min(28));
    b.t("\nADM: ")
        .l(&us(&adm), Kind::Date)
        .t("   DC: ")
        .l(&us(&dc), Kind::Date);
    b.t("   AGE: ");
    if r.chance(50) {
        b.l(&r.range(90, 103).to_string(), Kind::Age)
            .t("   DOB: ")
            .l(&us(&old_dob(r)), Kind::Date);
    } else {
        b.t(&r.range(40, 89).to_string())
            .t("   DOB: ")
            .l(&us(&p.dob), Kind::Date);
    }
    b.t(&format!(
        "\nATTENDING: DR {}\n\nDX: CHF EXACERBATION (I50.23), AKI ON CKD 3A (N17.9)\n",
        STAFF[r.below(STAFF.len())].1.to_uppercase()
    ));
    b.t("HOSP COURSE: DIURESED W/ IV FUROSEMIDE 40 MG BID, NET -4.1 L. CR PEAK 2.1 -> 1.4.\n");
    b.t("DISPO: HOME W/ ")
        .l(&kin.first.to_uppercase(), Kind::Person)
        .t(" ")
        .l(&kin.last.to_uppercase(), Kind::Person);
    b.t(" (DTR), ")
        .l(&kin.street.to_uppercase(), Kind::Address)
        .t(", ")
        .l(&kin.city.to_uppercase(), Kind::Address);
    b.t(" PH ").l(&phone(r, &kin.phone), Kind::Phone);
    b.t("\nF/U: PCP 1 WK, CARDIOLOGY 2 WKS. DAILY WTS, CALL IF GAIN > 3 LB.\nDICT: 0412 TRANS: 0530 JOB# ");
    b.t(&r.digits(6)).t("\n");
    b
}

fn account(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    let v = visit(r);
    b.t("From: HealthLink Patient Portal <no-reply@healthlink.greyfield.org>\nTo: ");
    b.l(&email(r, p), Kind::Email);
    match r.below(3) {
        0 => {
            b.t("\nSubject: Reset your HealthLink password\n\nHi ")
                .l(p.first, Kind::Person);
            b.t(",\n\nWe received a request to reset the password for your account. This link expires in 30 minutes:\n");
            b.l(
                &format!(
                    "https://healthlink.greyfield.org/account/reset?uid={}&token={:x}",
                    r.digits(8),
                    r.next()
                ),
                Kind::Url,
            );
            b.t("\n\nThe request came from IP address ")
                .l(&ip(r), Kind::Ip)
                .t(" on ");
            b.l(&date(r, v), Kind::Date).t(&format!(
                " at {}:{:02} PM.\n",
                r.range(1, 11),
                r.range(0, 59)
            ));
            b.t(&format!(
                "Your one-time code is {}. We will never ask for it by phone.\n",
                r.digits(6)
            ));
        }
        1 => {
            b.t("\nSubject: Proxy access granted\n\nHello ")
                .l(p.first, Kind::Person)
                .t(",\n\n");
            let k = person(r);
            b.l(&k.full(), Kind::Person)
                .t(" (born ")
                .l(&date(r, k.dob), Kind::Date);
            b.t(") has granted you proxy access to their record, MRN ");
            b.l(&format!("GRH{}", r.digits(7)), Kind::Mrn)
                .t(", on ")
                .l(&date(r, v), Kind::Date)
                .t(".\n");
            b.t("Identity verified with driver's license ")
                .l(&format!("{}{}", r.letters(2), r.digits(7)), Kind::License);
            b.t(". Sign-in from ").l(&ip(r), Kind::Ip).t(".\n");
        }
        _ => {
            b.t("\nSubject: New sign-in to your account\n\nHi ")
                .l(p.first, Kind::Person);
            b.t(",\n\nA new device signed in to your HealthLink account on ")
                .l(&date(r, v), Kind::Date);
            b.t(&format!(" (Chrome {} on Windows, IP ", r.range(110, 131)));
            b.l(&ip(r), Kind::Ip)
                .t(", near ")
                .l(p.city, Kind::Address)
                .t(&format!(", {}).\n", p.state));
            b.t("Your mobile number on file ends in ")
                .t(&p.phone[6..])
                .t(". Not you? Lock your account: ");
            b.l(
                &format!(
                    "https://healthlink.greyfield.org/security/lock?acct={}",
                    r.digits(9)
                ),
                Kind::Url,
            );
            b.t("\n");
        }
    }
    b.t("\nNeed help? Call the portal help desk at ");
    b.l(&new_phone(r), Kind::Phone)
        .t(" (Mon–Fri, 7am–7pm). Terms: https://healthlink.greyfield.org/terms\n");
    b
}

pub fn generate(seed: u64, n: usize) -> Set {
    let mut r = Rng(seed);
    let mut docs = Vec::with_capacity(n);
    let mut roster = Vec::new();
    for i in 0..n {
        let family = FAMILIES[i % FAMILIES.len()];
        let mut p = person(&mut r);
        if family == "teletype" || family == "genetics" {
            // These families name the proband's surname on relatives too; keep dob adult.
            p.dob = (r.range(1930, 1990), p.dob.1, p.dob.2);
        }
        let b = match family {
            "genetics" => genetics(&mut r, &p),
            "ivf" => ivf(&mut r, &p),
            "pathology" => pathology(&mut r, &p),
            "bloodbank" => bloodbank(&mut r, &p),
            "cgm" => cgm(&mut r, &p),
            "cardiac" => cardiac(&mut r, &p),
            "applog" => applog(&mut r, &p),
            "sqldump" => sqldump(&mut r, &p),
            "links" => links(&mut r, &p),
            "foster" => foster(&mut r, &p),
            "student" => student(&mut r, &p),
            "military" => military(&mut r, &p),
            "adaclaim" => adaclaim(&mut r, &p),
            "chiro" => chiro(&mut r, &p),
            "speech" => speech(&mut r, &p),
            "travel" => travel(&mut r, &p),
            "crisis" => crisis(&mut r, &p),
            "europe" => europe(&mut r, &p),
            "asia" => asia(&mut r, &p),
            "merge" => merge(&mut r, &p),
            "smsopt" => smsopt(&mut r, &p),
            "ivr" => ivr(&mut r, &p),
            "teletype" => teletype(&mut r, &p),
            _ => account(&mut r, &p),
        };
        if i % 3 == 0 {
            roster.push(p.full());
        }
        docs.push(b.doc(family));
    }
    roster.sort();
    roster.dedup();
    let mut keep: Vec<String> = STAFF.iter().map(|(f, l)| format!("{f} {l}")).collect();
    keep.extend(PRACTICES.iter().map(|s| s.to_string()));
    keep.extend(PAYERS.iter().map(|s| s.to_string()));
    Set { docs, roster, keep }
}
