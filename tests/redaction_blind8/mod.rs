//! The eighth blind set's generator: 26 families of clinic text not in the earlier sets
//! (wound-vac and ostomy supply orders, partner notification, TB contact tracing, newborn
//! screening callbacks, hearing-aid fittings, sports physicals and concussion forms,
//! needle-stick reports, chaplain notes, advocate complaints, amendment requests, subpoenas,
//! collections letters, OCR'd prior-auth faxes, home-infusion delivery tickets, dialysis
//! transport rosters, interpreter scheduling chats, .ics exports, TSV with merged headers,
//! Obsidian notes, HTML-remnant mail, voicemail-to-text, Teams .vtt, Zoom chat logs and
//! Spanish/Portuguese, Greek/Hebrew and Ukrainian/Finnish/Thai messages), each document with
//! byte-exact labels. Written without reading the redactor's rules or word lists or the other
//! sets' generators; the pools are this set's own.
//!
//! Conventions: every phone and fax number and every day-precision date is labelled (a month
//! and year alone is not), ages only from 90 (the number or the word), a room or bed by its
//! number, a street line and a city each as an `Address`, a name's tokens as one span when
//! only spaces part them and as separate spans when punctuation does. Staff, the practice,
//! its sites, payers and firms are in the keep list and never labelled; neither are NPI, CPT,
//! ICD-10, HCPCS, NDC, LOINC, lot, order, PO and invoice numbers, doses, vitals, times,
//! weekdays and relative dates.

use opsdesk::governance::redact::Kind::{self, *};

use crate::redaction_harness::{Doc, Label, Set};

pub const FAMILIES: [&str; 26] = [
    "woundvac",
    "partner",
    "tbtrace",
    "nbs",
    "hearaid",
    "sportsphy",
    "needlestk",
    "chaplain",
    "advocate",
    "amend",
    "subpoena",
    "collect",
    "pafax",
    "infusdel",
    "dialride",
    "interp",
    "ics",
    "tsvmerge",
    "obsidian",
    "htmlmail",
    "vm2text",
    "vtt",
    "zoom",
    "es_pt",
    "gr_he",
    "uk_fi_th",
];

// ---------------------------------------------------------------- randomness

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64: small, seeded, good enough for picking from pools.
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
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
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
    fn letters(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from(b"ABCDEFGHJKLMNPRSTUVWXYZ"[self.below(23)]))
            .collect()
    }
}

// ---------------------------------------------------------------- the document builder

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
        self.labels.push(Label {
            start,
            end: self.text.len(),
            kind,
        });
        self
    }
    fn n(&mut self, s: &str) -> &mut Self {
        self.l(Person, s)
    }
}

// ---------------------------------------------------------------- pools

const FIRST: &[&str] = &[
    "Wilhelmina",
    "Tobiah",
    "Oluwaseun",
    "Marisela",
    "Kealoha",
    "Ignatius",
    "Yevheniia",
    "Taavi",
    "Anneli",
    "Somsak",
    "Kanya",
    "Stavroula",
    "Dimitrios",
    "Avraham",
    "Tzipora",
    "Rivka",
    "Joaquim",
    "Thaís",
    "Gonçalo",
    "Araceli",
    "Eusebio",
    "Bartholomew",
    "Dawn",
    "Joy",
    "Hunter",
    "Autumn",
    "Sterling",
    "Faith",
    "Ivy",
    "Sage",
    "Clement",
    "Ngozi",
    "Chiamaka",
    "Bogdan",
    "Halyna",
    "Leilani",
    "Parveen",
    "Devendra",
    "Ishaan",
    "Nokuthula",
    "Thandiwe",
    "Mercy",
    "Precious",
    "Royal",
    "Destiny",
    "Paz",
    "Rocío",
    "Fiifi",
    "Abena",
    "Kwabena",
    "Jurgis",
    "Aušra",
    "Eero",
    "Sirkka",
    "Pornthip",
    "Natthawut",
    "Yael",
    "Shai",
    "Zacharias",
    "Kalliope",
    "Hlib",
    "Taras",
    "Olesya",
    "Winston",
    "Gertrude",
    "Lavinia",
    "Perpetua",
    "Rashida",
    "Tariq",
    "Imogen",
    "Ruairí",
    "Siobhán",
    "Bao",
    "Xiaoling",
    "Haruto",
    "Min-seo",
    "Ebru",
    "Florin",
    "Radomir",
    "Zsófia",
    "Lorcan",
    "Maeve",
    "Emrys",
    "Ottilie",
    "Cosmo",
    "Delphine",
    "Ulrike",
    "Jolene",
    "Clay",
    "Frost",
    "Major",
    "Honor",
    "Story",
    "Lark",
];

const LAST: &[&str] = &[
    "Vantongeren",
    "Okonkwo-Reyes",
    "Hakala",
    "Jääskeläinen",
    "Mäkinen",
    "Srisuk",
    "Chaiyaporn",
    "Wongsakul",
    "Papadakis",
    "Karagiannis",
    "Theodorou",
    "Ben-David",
    "Mizrahi",
    "Abergel",
    "Katz-Levin",
    "Shevchuk",
    "Kovalenko",
    "Tkachenko",
    "Bondarenko",
    "Figueiredo",
    "Albuquerque",
    "dos Reis",
    "da Costa Lima",
    "Villaseñor",
    "Echeverría",
    "de la Garza",
    "Montalvo",
    "Kahananui",
    "Kealamakia",
    "Aoki-Bright",
    "Dlamini",
    "Mthembu",
    "Asante",
    "Boateng",
    "Adeyemi",
    "Ibekwe",
    "O'Dowd",
    "McCrory",
    "Fitzsimons",
    "Strand",
    "Bird",
    "Church",
    "Marsh",
    "Hale",
    "Snow",
    "Winter",
    "Lamb",
    "Fox",
    "Steele",
    "Gold",
    "Wolfe",
    "Kowalczyk",
    "Szabó",
    "Novák",
    "Horvath",
    "Petrescu",
    "Rahimi",
    "Haddad",
    "bin Yusof",
    "Nakashima",
    "Phan",
    "Quách",
    "Thistlewood",
    "Pemberton-Sykes",
    "Abernathy-Lund",
    "Oyelaran",
    "Nwachukwu",
    "Castellví",
    "Ferreira Bastos",
    "Lindgren",
    "Halvorsen",
    "Ruiz Soto",
    "ter Horst",
    "van Wijk",
    "Al-Khouri",
    "Ghazarian",
    "Tsosie",
    "Yazzie",
    "Begay",
    "Kaur Gill",
    "Raghunathan",
    "Iyer",
    "Sato",
    "Mukherjee",
    "Mbatha",
    "Juarez",
    "Keough",
    "Drummond",
];

const STREET_NAMES: &[&str] = &[
    "Persimmon Hollow",
    "Calloway",
    "N Tamarack",
    "Old Furnace",
    "Quillen",
    "Bramblewood",
    "E Sycamore Ridge",
    "Cottonmill",
    "Harrow Gate",
    "Lantana",
    "Wickersham",
    "S Juniper Bluff",
    "Tanyard",
    "Orchard Crest",
    "Mill Race",
    "W Pelham",
    "Foxglove",
    "Cinder Path",
    "Bellwether",
    "Ridgeback",
    "Larchmont",
    "Sawgrass",
    "Coldwater Spring",
    "Hickory Nut",
];
const STREET_TYPES: &[&str] = &[
    "Rd", "Ct", "Ave", "Pike", "St", "Ln", "Dr", "Way", "Blvd", "Cir", "Road", "Street", "Trail",
    "Terrace",
];
const CITIES: &[(&str, &str)] = &[
    ("Chillicothe", "OH"),
    ("Tullahoma", "TN"),
    ("Ypsilanti", "MI"),
    ("Walla Walla", "WA"),
    ("Kalispell", "MT"),
    ("Natchitoches", "LA"),
    ("Hopkinsville", "KY"),
    ("Bemidji", "MN"),
    ("Sheboygan", "WI"),
    ("Pocatello", "ID"),
    ("Ocala", "FL"),
    ("Lufkin", "TX"),
    ("Keokuk", "IA"),
    ("Dothan", "AL"),
    ("Beaufort", "SC"),
    ("Bangor", "ME"),
    ("Rutland", "VT"),
    ("Laramie", "WY"),
    ("Muskogee", "OK"),
    ("Wenatchee", "WA"),
    ("Hilo", "HI"),
    ("Gallup", "NM"),
    ("Nacogdoches", "TX"),
    ("Elmira", "NY"),
];
const AREA: &[&str] = &[
    "740", "931", "734", "509", "406", "318", "270", "218", "920", "208", "352", "936", "319",
    "334", "843", "207", "802", "307", "918", "808", "505", "607",
];
const MAIL_HOSTS: &[&str] = &[
    "gmail.com",
    "yahoo.com",
    "outlook.com",
    "icloud.com",
    "proton.me",
    "aol.com",
    "hotmail.com",
    "frontier.net",
    "windstream.net",
    "gmx.com",
];
const MONTHS: &[&str] = &[
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

// Staff, sites, payers and firms: the keep list; never labelled.
const STAFF: &[&str] = &[
    "Philippa Armitage-Onu",
    "Renske Bloemendaal",
    "Cormac Lindqvist",
    "Abimbola Fairweather",
    "Teodora Vasquez-Ilunga",
    "Rufus Emmerich",
    "Hyun-woo Castellanos",
    "Juniper Rathbone",
    "Marguerite Osei",
    "Lionel Thibodeaux",
    "Yolanda Baptiste",
    "Casimir Oduya",
];
const ORGS: &[&str] = &[
    "Larkspur Valley Health",
    "Larkspur Valley Audiology",
    "Brightwater Home Infusion",
    "Harlan & Bexley LLP",
    "Keystone Mutual Health",
    "Aldergrove Medicaid Plan",
    "Meridell Collections Group",
    "Sundial Dialysis Center",
    "Pinecrest Transport",
    "Larkspur Sexual Health Clinic",
    "County TB Program",
    "State Newborn Screening Lab",
];

fn staff(r: &mut Rng) -> (&'static str, &'static str) {
    let s = r.pick(STAFF);
    let last = s.split(' ').next_back().unwrap();
    (s, last)
}

/// ASCII for an e-mail local part.
fn fold(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        let m = match c {
            'á' | 'à' | 'â' | 'ä' | 'ã' | 'å' => "a",
            'é' | 'è' | 'ê' | 'ë' => "e",
            'í' | 'ï' | 'î' => "i",
            'ó' | 'ô' | 'ö' | 'õ' | 'ø' | 'ő' => "o",
            'ú' | 'ü' | 'û' => "u",
            'ñ' => "n",
            'ç' => "c",
            'š' => "s",
            'ž' => "z",
            c if c.is_ascii_alphanumeric() => {
                out.push(c.to_ascii_lowercase());
                continue;
            }
            _ => "",
        };
        out.push_str(m);
    }
    out
}

// ---------------------------------------------------------------- a patient

struct P {
    first: String,
    last: String,
    mi: char,
    female: bool,
    dob: (u32, u32, u32),
    phone: String,
    email: String,
    street: String,
    city: &'static str,
    st: &'static str,
    zip: String,
    mrn: String,
    plan: String,
    acct: String,
}

fn name(r: &mut Rng) -> (String, String) {
    (r.pick(FIRST).to_string(), r.pick(LAST).to_string())
}

fn phone(r: &mut Rng) -> String {
    let a = r.pick(AREA);
    let e = r.range(201, 989);
    let n = r.digits(4);
    let n = format!("{}{}", r.below(10), &n[1..]);
    match r.below(7) {
        0 => format!("({a}) {e}-{n}"),
        1 => format!("{a}-{e}-{n}"),
        2 => format!("{a}.{e}.{n}"),
        3 => format!("+1 {a} {e} {n}"),
        4 => format!("1-{a}-{e}-{n}"),
        5 => format!("({a}){e}-{n}"),
        _ => format!("+1-{a}-{e}-{n}"),
    }
}

fn email(r: &mut Rng, first: &str, last: &str) -> String {
    let (f, l) = (fold(first), fold(last));
    let y = r.range(40, 99);
    let local = match r.below(5) {
        0 => format!("{f}.{l}"),
        1 => format!("{}{l}{y}", &f[..1]),
        2 => format!("{f}_{l}"),
        3 => format!("{l}.{f}{}", r.below(10)),
        _ => format!("{f}{}", r.digits(3)),
    };
    format!("{local}@{}", r.pick(MAIL_HOSTS))
}

fn patient(r: &mut Rng) -> P {
    let (first, last) = name(r);
    let (city, st) = CITIES[r.below(CITIES.len())];
    let phone = phone(r);
    let email = email(r, &first, &last);
    let street = format!(
        "{} {} {}",
        r.range(11, 9899),
        r.pick(STREET_NAMES),
        r.pick(STREET_TYPES)
    );
    let street = if r.chance(25) {
        format!(
            "{street}, {}",
            r.pick(&["Apt 3B", "Unit 12", "#207", "Apt. 4", "Lot 19"])
        )
    } else {
        street
    };
    let zip = if r.chance(30) {
        format!("{}-{}", r.digits(5), r.digits(4))
    } else {
        r.digits(5)
    };
    let mrn = match r.below(4) {
        0 => r.digits(8),
        1 => format!("{}{}", r.letters(1), r.digits(7)),
        2 => format!("{}-{}", r.digits(3), r.digits(4)),
        _ => format!("00{}", r.digits(6)),
    };
    let plan = match r.below(4) {
        0 => format!("{}{}", r.letters(3), r.digits(9)),
        1 => format!("{}{}", r.digits(8), r.letters(1)),
        2 => format!("W{}", r.digits(10)),
        _ => format!("{}-{}-{}", r.letters(2), r.digits(4), r.digits(4)),
    };
    let acct = match r.below(3) {
        0 => r.digits(10),
        1 => format!("{}-{}-{}", r.digits(2), r.digits(4), r.digits(4)),
        _ => format!("PA{}", r.digits(7)),
    };
    P {
        mi: char::from(b'A' + r.below(26) as u8),
        female: r.chance(50),
        dob: (r.range(1931, 2019), r.range(1, 12), r.range(1, 28)),
        first,
        last,
        phone,
        email,
        street,
        city,
        st,
        zip,
        mrn,
        plan,
        acct,
    }
}

fn full(p: &P) -> String {
    format!("{} {}", p.first, p.last)
}

fn service_date(r: &mut Rng) -> (u32, u32, u32) {
    (r.range(2025, 2026), r.range(1, 12), r.range(1, 28))
}

/// A service date (2025–2026) in one of the written forms.
fn sdate(r: &mut Rng) -> String {
    let d = service_date(r);
    date(r, d)
}

/// A day-precision date in one of many US/ISO written forms.
fn date(r: &mut Rng, (y, m, d): (u32, u32, u32)) -> String {
    let mon = MONTHS[m as usize - 1];
    match r.below(10) {
        0 => format!("{m:02}/{d:02}/{y}"),
        1 => format!("{m}/{d}/{y}"),
        2 => format!("{y}-{m:02}-{d:02}"),
        3 => format!("{mon} {d}, {y}"),
        4 => format!("{d} {} {y}", &mon[..3]),
        5 => format!("{m}/{d}/{:02}", y % 100),
        6 => format!("{}-{d:02}-{y}", &mon[..3]),
        7 => format!("{d}-{}-{y}", mon[..3].to_uppercase()),
        8 => format!("{m:02}-{d:02}-{y}"),
        _ => format!("{}. {d}, {y}", &mon[..3]),
    }
}

fn age90(r: &mut Rng) -> String {
    r.range(90, 104).to_string()
}

fn ssn(r: &mut Rng) -> String {
    let a = r.range(101, 665);
    let b = r.range(10, 99);
    let c = r.range(1000, 9999);
    if r.chance(80) {
        format!("{a}-{b}-{c}")
    } else {
        format!("{a} {b} {c}")
    }
}

fn luhn_card(r: &mut Rng) -> String {
    let prefix = r.pick(&["4", "51", "37", "6011"]);
    let len = if prefix == "37" { 15 } else { 16 };
    let mut ds: Vec<u32> = prefix.chars().map(|c| c.to_digit(10).unwrap()).collect();
    while ds.len() < len - 1 {
        ds.push(r.below(10) as u32);
    }
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
    let s: String = ds
        .iter()
        .map(|d| char::from_digit(*d, 10).unwrap())
        .collect();
    if len == 16 && r.chance(60) {
        format!("{} {} {} {}", &s[0..4], &s[4..8], &s[8..12], &s[12..16])
    } else {
        s
    }
}

fn npi(r: &mut Rng) -> String {
    format!("1{}", r.digits(9))
}

fn serial(r: &mut Rng) -> String {
    match r.below(3) {
        0 => format!("{}{}{}", r.digits(4), r.letters(1), r.digits(4)),
        1 => format!("{}-{}", r.letters(3), r.digits(8)),
        _ => format!("SN{}{}", r.letters(2), r.digits(6)),
    }
}

fn plate(r: &mut Rng) -> String {
    match r.below(3) {
        0 => format!("{}{}{}", r.digits(1), r.letters(3), r.digits(3)),
        1 => format!("{}-{}", r.letters(3), r.digits(4)),
        _ => format!("{} {}", r.letters(3), r.digits(3)),
    }
}

fn licence(r: &mut Rng) -> String {
    match r.below(3) {
        0 => format!(
            "{}{}-{}-{}",
            r.letters(1),
            r.digits(3),
            r.digits(4),
            r.digits(4)
        ),
        1 => format!("{}{}", r.letters(1), r.digits(7)),
        _ => r.digits(9),
    }
}

fn room(r: &mut Rng) -> String {
    match r.below(3) {
        0 => r.range(201, 988).to_string(),
        1 => format!(
            "{}{}",
            r.range(2, 9),
            r.pick(&["12", "08", "21", "34", "17"])
        ),
        _ => format!("{}{}", r.range(1, 40), r.pick(&["A", "B"])),
    }
}

fn lookalike(r: &mut Rng) -> String {
    match r.below(9) {
        0 => format!("NPI {}", npi(r)),
        1 => format!(
            "CPT {}",
            r.pick(&["99214", "97110", "92591", "36416", "87491"])
        ),
        2 => format!(
            "ICD-10 {}",
            r.pick(&["Z20.6", "L89.154", "H90.3", "S06.0X0A", "N18.6"])
        ),
        3 => format!("Lot {}{}", r.digits(2), r.letters(3)),
        4 => format!("PO {}", r.digits(6)),
        5 => format!("NDC {}-{}-{}", r.digits(5), r.digits(4), r.digits(2)),
        6 => format!("order #{}", r.digits(7)),
        7 => format!("invoice INV-{}", r.digits(5)),
        _ => format!("LOINC {}-{}", r.digits(4), r.below(10)),
    }
}

/// The short form a patient goes by, for the first names that have a usual one.
fn nickname(first: &str) -> Option<&'static str> {
    Some(match first {
        "Bartholomew" => "Bart",
        "Wilhelmina" => "Mina",
        "Oluwaseun" => "Seun",
        "Ignatius" => "Iggy",
        "Zacharias" => "Zach",
        "Dimitrios" => "Mimis",
        "Stavroula" => "Voula",
        "Avraham" => "Avi",
        "Kalliope" => "Popi",
        "Gertrude" => "Trudy",
        "Lavinia" => "Vinnie",
        "Chiamaka" => "Amaka",
        "Yevheniia" => "Zhenia",
        "Perpetua" => "Pet",
        "Tobiah" => "Toby",
        "Eusebio" => "Chebo",
        _ => return None,
    })
}

/// A patient's name in one of several written forms.
fn say_name(b: &mut B, r: &mut Rng, p: &P) {
    match r.below(8) {
        0 => b.n(&format!("{} {}. {}", p.first, p.mi, p.last)),
        1 => b
            .n(&p.last.to_uppercase())
            .t(", ")
            .n(&p.first.to_uppercase()),
        2 => b.n(&p.last).t(", ").n(&p.first),
        3 => b.n(&full(p).to_lowercase()),
        4 => b.n(&full(p).to_uppercase()),
        5 => match nickname(&p.first) {
            Some(nick) => b.n(&p.first).t(" \"").n(nick).t("\" ").n(&p.last),
            None => b.n(&format!("{}. {}", &p.first[..1], p.last)),
        },
        6 => b.t(if p.female { "Mrs. " } else { "Mr. " }).n(&p.last),
        _ => b.n(&full(p)),
    };
}

fn addr(b: &mut B, p: &P, sep: &str) {
    b.l(Address, &p.street)
        .t(sep)
        .l(Address, p.city)
        .t(&format!(", {} ", p.st))
        .l(Zip, &p.zip);
}

// ---------------------------------------------------------------- families

fn woundvac(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let (_, doc) = staff(r);
    if r.chance(50) {
        b.t("NEGATIVE PRESSURE WOUND THERAPY — SUPPLY ORDER\nOrder #: SO-")
            .t(&r.digits(5))
            .t("   PO ")
            .t(&r.digits(6))
            .t("\nPatient: ");
        say_name(&mut b, r, p);
        b.t("   DOB: ");
        let d = date(r, p.dob);
        b.l(Date, &d).t("\nShip to: ");
        addr(&mut b, p, ", ");
        b.t("\nPhone: ")
            .l(Phone, &p.phone)
            .t("\nMember ID: ")
            .l(HealthPlan, &p.plan);
        b.t("\nPump serial: ").l(Device, &serial(r));
        b.t("\nHCPCS: A6550 x 10 dressing kits, A7000 x 2 canisters\nDx: L89.154\n");
        b.t(&format!("Ordering: Dr. {doc}, NPI {}\n", npi(r)));
        b.t("Start of therapy: ");
        let d = sdate(r);
        b.l(Date, &d)
            .t("; deliver by Friday, dressing change M/W/F.\n");
    } else {
        b.t("Ostomy re-order for ");
        b.n(&p.last).t(", ").n(&p.first);
        b.t(" (MRN ")
            .l(Mrn, &p.mrn)
            .t(")\n2-piece pouch 57 mm, HCPCS A5063, 20/box; barrier rings A4385 x 10.\n");
        b.t("Last shipped ");
        let d = sdate(r);
        b.l(Date, &d).t(". Call pt at ").l(Phone, &p.phone);
        b.t(" before the driver goes out — spouse ");
        let (f2, _) = name(r);
        b.n(&f2).t(" signs if pt is out.\n");
        b.t(&format!("{} (not PHI). Fax confirmation to ", lookalike(r)));
        b.l(Fax, &phone(r)).t(&format!(". — {doc}\n"));
    }
    b
}

fn partner(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let (_, dis) = staff(r);
    b.t("Partner services — index case MRN ")
        .l(Mrn, &p.mrn)
        .t(" (");
    b.n(&full(p))
        .t(")\nDx: A54.9 (CPT 87591 NAAT positive), treated ");
    let d = sdate(r);
    b.l(Date, &d).t(" with ceftriaxone 500 mg IM.\n");
    for i in 1..=r.range(2, 3) {
        let (f, l) = name(r);
        b.t(&format!("Partner {i}: "));
        if r.chance(40) {
            b.n(&f).t(" (last name unknown)");
        } else {
            b.n(&format!("{f} {l}"));
        }
        b.t(", phone ").l(Phone, &phone(r));
        if r.chance(50) {
            b.t(", email ").l(Email, &email(r, &f, &l));
        }
        b.t(", last exposure ");
        let d = sdate(r);
        b.l(Date, &d).t(".\n");
    }
    b.t(&format!(
        "Notified anonymously by DIS {dis} on Tuesday; follow up in 2 weeks.\n"
    ));
    b
}

fn tbtrace(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t("TB CONTACT INVESTIGATION — County TB Program\nIndex: ");
    b.n(&p.last.to_uppercase()).t(", ").n(&p.first);
    b.t("   MRN ").l(Mrn, &p.mrn).t("   DOB ");
    let d = date(r, p.dob);
    b.l(Date, &d).t("\nResidence: ");
    addr(&mut b, p, ", ");
    b.t("\nSputum AFB smear 3+ collected 11/2026; ICD-10 A15.0\n\n#  Name | Relation | DOB | Phone | IGRA\n");
    let rels = [
        "spouse",
        "grandmother",
        "roommate",
        "coworker",
        "son",
        "niece",
    ];
    for i in 1..=r.range(3, 4) {
        let (f, l) = name(r);
        let rel = r.pick(&rels);
        b.t(&format!("{i}  "))
            .n(&format!("{f} {l}"))
            .t(&format!(" | {rel} | "));
        if rel == "grandmother" {
            b.t("age ").l(Age, &age90(r));
        } else {
            let when = (r.range(1950, 2015), r.range(1, 12), r.range(1, 28));
            let d = date(r, when);
            b.l(Date, &d);
        }
        b.t(" | ").l(Phone, &phone(r)).t(" | ");
        b.t(r.pick(&["neg", "POS", "pending", "indeterminate"]))
            .t("\n");
    }
    b.t("Window-period retest 8–10 weeks after last exposure.\n");
    b
}

fn nbs(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let (_, rn) = staff(r);
    let born = service_date(r);
    b.t("Newborn screen callback — State Newborn Screening Lab\nInfant: Baby ");
    b.t(if p.female { "Girl " } else { "Boy " }).n(&p.last);
    b.t("   DOB ");
    let d = date(r, born);
    b.l(Date, &d)
        .t(" 04:12   MRN ")
        .l(Mrn, &p.mrn)
        .t("\nMother: ");
    let (mf, _) = name(r);
    b.n(&format!("{mf} {}", p.last))
        .t("   cell ")
        .l(Phone, &p.phone)
        .t("\n");
    b.t(&format!(
        "Result: borderline TSH (LOINC 29575-0); {} not a patient id.\nRepeat heel stick requested before ",
        lookalike(r)
    ));
    let d = date(r, (born.0, born.1, (born.2 + 5).min(28)));
    b.l(Date, &d)
        .t(&format!(". Spoke with mom on Monday — {rn}, RN\n"));
    b
}

fn hearaid(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let (_, aud) = staff(r);
    b.t("Larkspur Valley Audiology — hearing aid fitting\nClient: ");
    say_name(&mut b, r, p);
    b.t(" (");
    if r.chance(50) {
        b.l(Age, &age90(r)).t(" y/o");
    } else {
        b.t("DOB ").l(Date, &date(r, p.dob));
    }
    b.t(")\nFitting date: ").l(Date, &sdate(r));
    b.t("\nL: Oticon Intent 1 miniRITE, serial ")
        .l(Device, &serial(r));
    b.t("\nR: Oticon Intent 1 miniRITE, serial ")
        .l(Device, &serial(r));
    b.t("\nREM verified, 2 programs; CPT 92591, V5261. H90.3.\nWarranty ends ");
    let until = (2029, r.range(1, 12), r.range(1, 28));
    b.l(Date, &date(r, until));
    b.t(". Paid balance by card ").l(Card, &luhn_card(r));
    b.t(".\nDaughter may call at ");
    b.l(Phone, &phone(r)).t(&format!(". — {aud}, AuD\n"));
    b
}

fn sportsphy(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let (_, doc) = staff(r);
    if r.chance(55) {
        b.t("PREPARTICIPATION PHYSICAL EVALUATION\nAthlete: ")
            .n(&full(p));
        b.t("   Sport: ")
            .t(r.pick(&["wrestling", "soccer", "volleyball", "cross-country"]));
        let born = (r.range(2008, 2013), p.dob.1, p.dob.2);
        b.t("\nDate of birth: ").l(Date, &date(r, born));
        b.t("   Exam date: ").l(Date, &sdate(r));
        b.t("\nParent/guardian: ");
        let (gf, _) = name(r);
        b.n(&format!("{gf} {}", p.last))
            .t("   Phone: ")
            .l(Phone, &p.phone);
        b.t("\nHome: ");
        addr(&mut b, p, ", ");
        b.t("\nBP 112/68, HR 58, 5'9\", 148 lb. Cleared without restriction. CPT 99394.\n");
        b.t(&format!("Examiner: {doc}, MD\n"));
    } else {
        b.t("CONCUSSION — RETURN TO LEARN / RETURN TO PLAY\nStudent: ");
        b.n(&p.last).t(", ").n(&p.first).t("   MRN ").l(Mrn, &p.mrn);
        b.t("\nDate of injury: ").l(Date, &sdate(r));
        b.t(" (helmet-to-helmet, 3rd quarter). S06.0X0A.\nSCAT6 symptom score 14/132; no LOC.\n");
        b.t("Coach notified. Parent ");
        let (gf, gl) = name(r);
        b.n(&format!("{gf} {gl}"))
            .t(" at ")
            .l(Email, &email(r, &gf, &gl));
        b.t(&format!(
            ".\nStage 2 next Wednesday if symptom free 24 h. — {doc}\n"
        ));
    }
    b
}

fn needlestk(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let (emp, _) = staff(r);
    b.t("OCCUPATIONAL EXPOSURE REPORT (needle-stick)\nEmployee: ");
    b.t(emp)
        .t(", RN — Employee Health notified\nDate of exposure: ");
    b.l(Date, &sdate(r))
        .t(" at 03:40\nLocation: 5 North, room ");
    b.l(Room, &room(r)).t("\nSource patient: ");
    say_name(&mut b, r, p);
    b.t("   MRN ")
        .l(Mrn, &p.mrn)
        .t("   DOB ")
        .l(Date, &date(r, p.dob));
    b.t("\nDevice: 25G safety needle, Lot ")
        .t(&format!("{}{}", r.digits(2), r.letters(3)));
    b.t("; source labs HIV Ag/Ab (LOINC 56888-1), HBsAg, HCV Ab drawn.\n");
    b.t("PEP offered within 2 hours; Z20.6. Follow-up at 6 weeks.\n");
    b
}

fn chaplain(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let (_, ch) = staff(r);
    b.t("Spiritual care note — room ").l(Room, &room(r)).t("\n");
    b.t("Visited ").n(&p.first).t(" (").n(&full(p)).t(", ");
    b.l(Age, &age90(r)).t(" years old) at the request of ");
    let (df, dl) = name(r);
    let rel = r.pick(&["daughter", "grandson", "wife", "neighbor", "son-in-law"]);
    b.t(&format!("{rel} ")).n(&format!("{df} {dl}")).t(". ");
    b.t("Pt is Catholic; asked for Anointing of the Sick. Sang a hymn with family.\n");
    b.t("Family can be reached at ").l(Phone, &phone(r));
    b.t(". Funeral planning discussed; will return Sunday after Mass.\n");
    b.t(&format!("— Chaplain {ch}\n"));
    b
}

fn advocate(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let (wf, wl) = name(r);
    let (sd1, sd2) = (service_date(r), service_date(r));
    b.t("To the Patient Advocate, Larkspur Valley Health\n\n");
    b.t("My name is ").n(&format!("{wf} {wl}")).t(" and my ");
    b.t(if p.female { "mother " } else { "father " })
        .n(&full(p));
    b.t(" (date of birth ")
        .l(Date, &date(r, p.dob))
        .t(", MRN ")
        .l(Mrn, &p.mrn);
    b.t(") was in room ")
        .l(Room, &room(r))
        .t(" from ")
        .l(Date, &date(r, sd1));
    b.t(" to ").l(Date, &date(r, sd2)).t(".\n");
    b.t("The call light went unanswered for forty minutes and the bill (");
    b.t(&lookalike(r))
        .t(") charges for a CT that was never done.\n\n");
    b.t("You can reach me at ").l(Phone, &phone(r)).t(" or ");
    b.l(Email, &email(r, &wf, &wl))
        .t(".\n\nSincerely,\n")
        .n(&format!("{wf} {wl}"));
    b.t("\n");
    addr(&mut b, p, "\n");
    b.t("\n");
    b
}

fn amend(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t("REQUEST TO AMEND PROTECTED HEALTH INFORMATION (45 CFR 164.526)\n");
    b.t("Name: ");
    say_name(&mut b, r, p);
    b.t("\nDate of birth: ").l(Date, &date(r, p.dob));
    b.t("\nSocial Security No.: ").l(Ssn, &ssn(r));
    b.t("\nMedical record #: ").l(Mrn, &p.mrn);
    b.t("\nMailing address: ");
    addr(&mut b, p, ", ");
    b.t("\nDate of service to amend: ").l(Date, &sdate(r));
    b.t("\nEntry: the allergy list says penicillin; it was my brother ");
    let (bf, _) = name(r);
    b.n(&format!("{bf} {}", p.last)).t(" who is allergic.\n");
    b.t("Signature on file. Received by HIM within 60 days.\n");
    b
}

fn subpoena(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t("SUBPOENA DUCES TECUM\nTo: Custodian of Records, Larkspur Valley Health\n");
    b.t("Issued on behalf of Harlan & Bexley LLP. You are commanded to produce the complete records of:\n");
    b.t("  Name: ");
    b.n(&p.last.to_uppercase())
        .t(", ")
        .n(&format!("{} {}.", p.first.to_uppercase(), p.mi));
    b.t("\n  DOB: ")
        .l(Date, &date(r, p.dob))
        .t("   SSN: ")
        .l(Ssn, &ssn(r));
    b.t("\n  Driver's license: ").l(License, &licence(r));
    b.t("\n  Vehicle in the collision (plate): ")
        .l(Vehicle, &plate(r));
    b.t("\nfor dates of service ").l(Date, &sdate(r));
    b.t(" through ").l(Date, &sdate(r));
    b.t(", including billing (CPT 99285, 72125) and imaging.\nReturn by ");
    b.l(Date, &sdate(r)).t(" at 10:00 a.m. Fees per statute.\n");
    b
}

fn collect(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t("Meridell Collections Group\nFINAL NOTICE — placed by Larkspur Valley Health\n\n");
    say_name(&mut b, r, p);
    b.t("\n");
    addr(&mut b, p, "\n");
    b.t("\n\nAccount number: ").l(Account, &p.acct);
    b.t(&format!(
        "\nBalance due: ${}.{:02} (date of service ",
        r.range(80, 4800),
        r.below(100)
    ));
    b.l(Date, &sdate(r)).t(")\n");
    b.t(&format!("Reference {} is ours, not yours.\n", lookalike(r)));
    b.t("Pay by ")
        .l(Date, &sdate(r))
        .t(" to avoid credit reporting.\n\n");
    b.t("PAYMENT STUB  Card no.: ")
        .l(Card, &luhn_card(r))
        .t("  Exp 08/29\n");
    b.t("Questions: ")
        .l(Phone, "1-800-555-0199")
        .t(" (our line). Your phone on file: ");
    b.l(Phone, &p.phone);
    b.t("\n");
    b
}

fn pafax(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let (_, doc) = staff(r);
    b.t("PR1OR AUTHOR1ZATION REQUEST - FAX\nTo: Keystone Mutual Health   Fax: ");
    b.l(Fax, &phone(r))
        .t("\nFrom: Larkspur Valley Health  Fax: ");
    b.l(Fax, "1-888-555-0177").t("\n\nPatient Narne: ");
    b.n(&p.last.to_uppercase())
        .t(" ")
        .n(&p.first.to_uppercase());
    b.t("\nD0B: ").l(Date, &date(r, p.dob));
    b.t("    Mernber lD: ").l(HealthPlan, &p.plan);
    b.t("\nPatient phone: ").l(Phone, &p.phone);
    b.t("\nDrug: Dupixent 300 rng/2 mL q2wk  NDC 0024-5915-02\nDx: L20.9\n");
    b.t(&format!("Prescriber: Dr. {doc}  NPl {}\n", npi(r)));
    b.t("Urgent — pt out of rneds since Thursday. Page 1 of 3\n");
    b
}

fn infusdel(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t(&format!(
        "Brightwater Home Infusion — DELIVERY TICKET DT-{}\n",
        r.digits(6)
    ));
    b.t("Deliver to: ").n(&full(p)).t("\n");
    addr(&mut b, p, ", ");
    b.t("\nGate code 4412#, dog in yard. Phone ")
        .l(Phone, &p.phone);
    b.t("\nDelivery date: ").l(Date, &sdate(r));
    b.t(" window 13:00–17:00\nItems: ertapenem 1 g x 7 (Lot ");
    b.t(&format!("{}{}", r.letters(2), r.digits(4)));
    b.t("), NS 100 mL x 7, CADD pump serial ")
        .l(Device, &serial(r));
    b.t("\nRx #")
        .t(&r.digits(7))
        .t(" (order, not PHI). Keep refrigerated.\nReceived by: ");
    let (rf, rl) = name(r);
    b.n(&format!("{rf} {rl}")).t(" (");
    b.t(r.pick(&["spouse", "son", "caregiver", "sister"]))
        .t(")\n");
    b
}

fn dialride(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t("Pinecrest Transport — Sundial Dialysis Center roster, ");
    b.l(Date, &sdate(r)).t(" (MWF)\n");
    b.t("Chair | Pickup | Patient | Address | Phone | Notes\n");
    let mut first = true;
    for _ in 0..r.range(3, 4) {
        let q = if first { None } else { Some(patient(r)) };
        let x = q.as_ref().unwrap_or(p);
        first = false;
        b.t(&format!(
            "{} | {:02}:{:02} | ",
            r.range(1, 24),
            r.range(4, 11),
            r.below(4) * 15
        ));
        b.n(&x.last).t(", ").n(&x.first).t(" | ");
        b.l(Address, &x.street).t(", ").l(Address, x.city).t(" | ");
        b.l(Phone, &x.phone).t(" | ");
        match r.below(4) {
            0 => {
                b.t("wheelchair, son drives own car plate ")
                    .l(Vehicle, &plate(r));
            }
            1 => {
                b.t("age ").l(Age, &age90(r)).t(", needs escort");
            }
            _ => {
                b.t("ambulatory, van 12");
            }
        }
        b.t("\n");
    }
    b
}

fn interp(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let lang = r.pick(&[
        "Mam",
        "K'iche'",
        "Dari",
        "Tigrinya",
        "Haitian Creole",
        "Burmese",
    ]);
    b.t("[09:12] Yolanda Baptiste: need a ")
        .t(lang)
        .t(" interpreter for ");
    b.n(&full(p).to_lowercase())
        .t(" dob ")
        .l(Date, &date(r, p.dob))
        .t("\n");
    b.t("[09:13] Casimir Oduya: in person or video? which day\n");
    b.t("[09:15] Yolanda Baptiste: in person, ")
        .l(Date, &sdate(r));
    b.t(" at 2:30, inpatient rm ")
        .l(Room, &room(r))
        .t(", mrn ")
        .l(Mrn, &p.mrn)
        .t("\n");
    b.t("[09:16] Casimir Oduya: ok booked. pt's ");
    let (hf, _) = name(r);
    b.t(r.pick(&["husband", "aunt", "brother"]))
        .t(" ")
        .n(&hf.to_lowercase());
    b.t(" will be there too, his cell ")
        .l(Phone, &phone(r))
        .t("\n");
    b.t("[09:16] Yolanda Baptiste: thx 👍 tomorrow I'll send the CPT T1013 code\n");
    b
}

fn ics_date(r: &mut Rng) -> String {
    let (y, m, d) = service_date(r);
    format!("{y}{m:02}{d:02}")
}

fn ics(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let (sname, _) = staff(r);
    b.t("BEGIN:VCALENDAR\r\nPRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\n");
    b.t("DTSTAMP:").l(Date, &ics_date(r)).t("T091500Z\r\n");
    b.t("DTSTART;TZID=Central Standard Time:")
        .l(Date, &ics_date(r))
        .t("T143000\r\n");
    b.t("SUMMARY:Follow-up ")
        .n(&full(p))
        .t(" (MRN ")
        .l(Mrn, &p.mrn)
        .t(")\r\n");
    b.t("DESCRIPTION:Call pt first at ")
        .l(Phone, &p.phone)
        .t("\\nDOB ");
    b.l(Date, &date(r, p.dob)).t("\\nCPT 99214\r\n");
    b.t(&format!(
        "ATTENDEE;CN={sname};ROLE=REQ-PARTICIPANT:mailto:scheduling@larkspurvalley.org\r\n"
    ));
    b.t("ATTENDEE;CN=")
        .n(&full(p))
        .t(":mailto:")
        .l(Email, &p.email)
        .t("\r\n");
    b.t(&format!(
        "UID:{}-{}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
        r.digits(8),
        r.digits(4)
    ));
    b
}

fn tsvmerge(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let (_, m, d) = service_date(r);
    b.t("Flu outreach — week of ")
        .l(Date, &format!("{} {d}", &MONTHS[m as usize - 1][..3]))
        .t("\t\t\tContact\t\t\n");
    b.t("Patient\t\tDOB\tPhone\tEmail\tMRN\n");
    b.t("Last\tFirst\t\t\t\t\n");
    let mut first = true;
    for _ in 0..r.range(2, 4) {
        let q = if first { None } else { Some(patient(r)) };
        let x = q.as_ref().unwrap_or(p);
        first = false;
        b.n(&x.last)
            .t("\t")
            .n(&x.first)
            .t("\t")
            .l(Date, &date(r, x.dob))
            .t("\t");
        b.l(Phone, &x.phone).t("\t");
        if r.chance(60) {
            b.l(Email, &x.email);
        }
        b.t("\t").l(Mrn, &x.mrn).t("\n");
    }
    b.t("\t\t\t\t\tCPT 90662, NDC 49281-0124-65\n");
    b
}

fn obsidian(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let d = service_date(r);
    b.t("---\ntags: [patients, followup]\ncreated: ")
        .l(Date, &format!("{}-{:02}-{:02}", d.0, d.1, d.2));
    b.t("\n---\n# [[")
        .n(&full(p))
        .t("]]\n\n- DOB:: ")
        .l(Date, &date(r, p.dob));
    b.t("\n- MRN:: ")
        .l(Mrn, &p.mrn)
        .t("\n- phone:: ")
        .l(Phone, &p.phone);
    b.t("\n- lives:: ");
    addr(&mut b, p, ", ");
    b.t("\n\n## Log\n- [[");
    let d2 = service_date(r);
    b.l(Date, &format!("{}-{:02}-{:02}", d2.0, d2.1, d2.2));
    b.t("]] called; ");
    let (kf, _) = name(r);
    b.t("sister [[")
        .n(&kf)
        .t("]] wants a callback end of day. #todo\n");
    b.t(&format!(
        "- meds: metformin 500 mg BID; {} \n",
        lookalike(r)
    ));
    b
}

fn htmlmail(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t("From: Larkspur Valley Health <noreply@larkspurvalley.org>\nTo: ")
        .l(Email, &p.email);
    b.t("\nX-Originating-IP: [").l(
        Ip,
        &format!(
            "{}.{}.{}.{}",
            r.range(23, 223),
            r.below(256),
            r.below(256),
            r.range(1, 254)
        ),
    );
    b.t("]\nSubject: Your appointment\n\nHi&nbsp;")
        .n(&p.first)
        .t(",<br><br>");
    b.t("Your visit is confirmed:<br><table><tr><td>Patient</td><td>")
        .n(&full(p));
    b.t("</td></tr><tr><td>Date</td><td>").l(Date, &sdate(r));
    b.t("&nbsp;10:45</td></tr><tr><td>Account</td><td>")
        .l(Account, &p.acct);
    b.t("</td></tr></table><br>Check in: <a href=\"");
    b.l(
        Url,
        &format!(
            "https://portal.larkspurvalley.org/checkin?mrn={}&amp;t={}",
            p.mrn,
            r.digits(6)
        ),
    );
    b.t("\">here</a><br>Questions?&nbsp;Reply or call.&nbsp;&nbsp;Thank you!<br>\n");
    b
}

fn words_digits(s: &str) -> String {
    const W: [&str; 10] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    ];
    s.chars()
        .filter_map(|c| c.to_digit(10))
        .map(|d| W[d as usize])
        .collect::<Vec<_>>()
        .join(" ")
}

/// 10..=99 in words, as a transcriber writes a year's last two digits.
fn tens_words(n: u32) -> String {
    const T: [&str; 10] = [
        "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    ];
    const U: [&str; 10] = [
        "", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    ];
    const TEEN: [&str; 10] = [
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
    match n {
        10..=19 => TEEN[n as usize - 10].to_string(),
        _ if n.is_multiple_of(10) => T[n as usize / 10].to_string(),
        _ => format!("{} {}", T[n as usize / 10], U[n as usize % 10]),
    }
}

fn vm2text(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let (sf, sl) = name(r);
    b.t("Voicemail from ")
        .l(Phone, &p.phone)
        .t(" — transcription (confidence low)\n");
    b.t("hi this is ")
        .n(&format!("{} {}", sf.to_lowercase(), sl.to_lowercase()));
    b.t(" calling about my ");
    b.t(if p.female { "mom " } else { "dad " })
        .n(&full(p).to_lowercase());
    b.t(" date of birth ");
    let (_, m, d) = p.dob;
    let ord = [
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
        "twentieth",
        "twenty first",
        "twenty second",
        "twenty third",
        "twenty fourth",
        "twenty fifth",
        "twenty sixth",
        "twenty seventh",
        "twenty eighth",
    ];
    let y = p.dob.0;
    let year = format!("nineteen {}", tens_words(y % 100));
    let dob = if y < 2000 {
        format!(
            "{} {} {}",
            MONTHS[m as usize - 1].to_lowercase(),
            ord[d as usize - 1],
            year
        )
    } else {
        format!(
            "{} {} {}",
            MONTHS[m as usize - 1].to_lowercase(),
            ord[d as usize - 1],
            y
        )
    };
    b.l(Date, &dob);
    b.t(if p.female { " she's " } else { " he's " })
        .l(Age, &age90(r));
    b.t(" and the wall greens pharmacy says the prior off is denied for the ellick whiz\n");
    b.t("please call me back at ");
    let cb = phone(r);
    b.l(Phone, &words_digits(&cb));
    b.t(" that's my cell or the house ")
        .l(Phone, &cb)
        .t(" thank you bye\n");
    b
}

fn vtt(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let (sname, _) = staff(r);
    b.t("WEBVTT\n\n1\n00:00:01.200 --> 00:00:04.800\n<v ")
        .t(sname);
    b.t(">Good morning, can you confirm your name and date of birth?</v>\n\n2\n00:00:05.100 --> 00:00:09.300\n<v ");
    b.n(&full(p))
        .t(">Sure, it's ")
        .n(&full(p))
        .t(", born ")
        .l(Date, &date(r, p.dob));
    b.t(".</v>\n\n3\n00:00:09.500 --> 00:00:14.000\n<v ")
        .t(sname);
    b.t(">And you're still at ")
        .l(Address, &p.street)
        .t("?</v>\n\n4\n00:00:14.200 --> 00:00:18.900\n<v ");
    b.n(&full(p)).t(">Yes. My ");
    let (hf, _) = name(r);
    b.t(r.pick(&["husband", "partner", "son"]))
        .t(" ")
        .n(&hf)
        .t(" is joining too.</v>\n");
    b
}

fn zoom(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let (sname, _) = staff(r);
    let ip = format!(
        "{}.{}.{}.{}",
        r.range(24, 216),
        r.below(256),
        r.below(256),
        r.range(2, 250)
    );
    b.t(&format!(
        "10:02:11 From {sname} to Everyone:\n\tWelcome! Waiting room is open.\n"
    ));
    b.t("10:03:40 From ")
        .n(&full(p))
        .t(" to Everyone:\n\thi, I'm on my phone, my ");
    b.t("DOB is ").l(Date, &date(r, p.dob)).t("\n");
    b.t(&format!("10:04:02 From {sname} to "))
        .n(&full(p))
        .t(" (Direct Message):\n\tThanks — can you confirm your member ID?\n");
    b.t("10:04:31 From ")
        .n(&full(p))
        .t(" to ")
        .t(sname)
        .t(" (Direct Message):\n\t");
    b.l(HealthPlan, &p.plan).t("\n");
    b.t("[participant log] joined 10:03:35 from ").l(Ip, &ip);
    b.t(" via ").l(
        Url,
        &format!(
            "https://larkspurvalley.zoom.us/j/{}?pwd=pt{}",
            r.digits(10),
            p.mrn
        ),
    );
    b.t("\n");
    b
}

fn es_pt(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let (y, m, d) = p.dob;
    if r.chance(50) {
        const MES: [&str; 12] = [
            "enero",
            "febrero",
            "marzo",
            "abril",
            "mayo",
            "junio",
            "julio",
            "agosto",
            "septiembre",
            "octubre",
            "noviembre",
            "diciembre",
        ];
        b.t("Hola, buenas tardes. Me llamo ").n(&full(p));
        b.t(" y mi fecha de nacimiento es el ")
            .l(Date, &format!("{d} de {} de {y}", MES[m as usize - 1]));
        b.t(". Necesito cambiar la cita del ");
        let s = service_date(r);
        b.l(Date, &format!("{}/{}/{}", s.2, s.1, s.0))
            .t(" porque mi abuela ");
        let (af, al) = name(r);
        b.n(&format!("{af} {al}"))
            .t(" de ")
            .l(Age, &age90(r))
            .t(" años está en el hospital, cuarto ");
        b.l(Room, &room(r))
            .t(". Mi número es ")
            .l(Phone, &p.phone)
            .t(". Gracias.\n");
    } else {
        b.t("Oi, tudo bem? Aqui é ").n(&full(p)).t(", nascido em ");
        b.l(Date, &format!("{d:02}/{m:02}/{y}"))
            .t(". Meu CPF não tenho, mas o prontuário é ");
        b.l(Mrn, &p.mrn).t(". Moro na ");
        b.l(Address, &p.street)
            .t(", ")
            .l(Address, p.city)
            .t(". Minha esposa ");
        let (af, _) = name(r);
        b.n(&af).t(" pode atender no ").l(Phone, &phone(r));
        b.t(". A consulta de sexta-feira pode ser remarcada? Obrigado!\n");
    }
    b
}

fn gr_he(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let (y, m, d) = p.dob;
    if r.chance(50) {
        b.t("Kalimera sas. Onomazomai ")
            .n(&full(p))
            .t(", imerominia gennisis ");
        b.l(Date, &format!("{d}/{m}/{y}")).t(". I giagia mou, ");
        let (gf, gl) = name(r);
        b.n(&format!("{gf} {gl}"))
            .t(", einai ")
            .l(Age, &age90(r))
            .t(" eton kai nosileuetai sto dwmatio ");
        b.l(Room, &room(r))
            .t(". Tilefono: ")
            .l(Phone, &p.phone)
            .t(". Efcharisto poli!\n");
    } else {
        b.t("Shalom, ani ")
            .n(&full(p))
            .t(", teudat zehut lo, aval mispar tik ");
        b.l(Mrn, &p.mrn)
            .t(". Taarich leida ")
            .l(Date, &format!("{d:02}.{m:02}.{y}"));
        b.t(". Ha-isha sheli ");
        let (wf, _) = name(r);
        b.n(&wf)
            .t(" tavo iti. Email: ")
            .l(Email, &p.email)
            .t(". Toda raba, yom rishon tov.\n");
    }
    b
}

fn uk_fi_th(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let (y, m, d) = p.dob;
    match r.below(3) {
        0 => {
            b.t("Dobryi den! Mene zvaty ")
                .n(&full(p))
                .t(", data narodzhennia ");
            b.l(Date, &format!("{d:02}.{m:02}.{y}")).t(". Moia mama ");
            let (mf, _) = name(r);
            b.n(&mf).t(" prosyt perezvonyty na ").l(Phone, &p.phone);
            b.t(". Nomer polisa ")
                .l(HealthPlan, &p.plan)
                .t(". Diakuiu!\n");
        }
        1 => {
            b.t("Hei! Olen ")
                .n(&full(p))
                .t(", syntymäaika ")
                .l(Date, &format!("{d}.{m}.{y}"));
            b.t(". Osoite ")
                .l(Address, &p.street)
                .t(", ")
                .l(Zip, &p.zip)
                .t(" ")
                .l(Address, p.city);
            b.t(". Isoäitini ");
            let (gf, gl) = name(r);
            b.n(&format!("{gf} {gl}"))
                .t(" on ")
                .l(Age, &age90(r))
                .t("-vuotias. Soittakaa numeroon ");
            b.l(Phone, &p.phone).t(". Kiitos!\n");
        }
        _ => {
            b.t("Sawasdee krub, phom chue ")
                .n(&full(p))
                .t(", wan gerd ");
            b.l(Date, &format!("{d}/{m}/{}", y + 543))
                .t(" (B.E.). Ber tho ")
                .l(Phone, &p.phone);
            b.t(". Mae khong phom, khun ");
            let (mf, _) = name(r);
            b.n(&mf)
                .t(", ayu ")
                .l(Age, &age90(r))
                .t(" pi, yoo hong ")
                .l(Room, &room(r));
            b.t(". Khob khun krub.\n");
        }
    }
    b
}

// ---------------------------------------------------------------- second forms

fn partner2(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t("Dear ");
    say_name(&mut b, r, p);
    b.t(",\n\nSomeone you were in contact with on or about ")
        .l(Date, &sdate(r));
    b.t(" has been diagnosed with an infection that can be passed on. Testing is free and\nconfidential at Larkspur Sexual Health Clinic (walk-in Tuesday and Thursday).\n");
    b.t("We tried you at ")
        .l(Phone, &p.phone)
        .t(" and at ")
        .l(Email, &p.email);
    b.t(".\nPlease bring this letter; your reference is ")
        .l(Mrn, &p.mrn);
    b.t(&format!(
        ".\nCPT 87491 / 87591 — no charge. {}\n",
        lookalike(r)
    ));
    b
}

fn tbtrace2(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t("DOT LOG (video directly observed therapy)\nClient: ");
    say_name(&mut b, r, p);
    b.t("  MRN ")
        .l(Mrn, &p.mrn)
        .t("  cell ")
        .l(Phone, &p.phone)
        .t("\n");
    for _ in 0..r.range(3, 5) {
        b.l(Date, &sdate(r)).t(&format!(
            "  {:02}:{:02}  rifampin 600 mg + isoniazid 300 mg + B6 25 mg  observed ✔\n",
            r.range(6, 9),
            r.below(60)
        ));
    }
    b.t("Session from ").l(
        Ip,
        &format!(
            "{}.{}.{}.{}",
            r.range(64, 199),
            r.below(256),
            r.below(256),
            r.range(2, 250)
        ),
    );
    b.t("; missed dose Sunday — outreach to ");
    let (hf, _) = name(r);
    b.t("housemate ").n(&hf).t(".\n");
    b
}

fn nbs2(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let (mf, _) = name(r);
    b.t("Dear ").n(&format!("{mf} {}", p.last)).t(",\n\n");
    b.t("Your baby, ")
        .n(&full(p))
        .t(", born ")
        .l(Date, &sdate(r));
    b.t(", needs a repeat newborn hearing screen (CPT 92586). The first screen on ");
    b.l(Date, &sdate(r))
        .t(" was \"refer\" in the left ear. This is common and often due to fluid.\n");
    b.t("Please call ")
        .l(Phone, &phone(r))
        .t(" to book. Baby's record number: ")
        .l(Mrn, &p.mrn);
    b.t(".\nWe will mail a reminder to ");
    addr(&mut b, p, ", ");
    b.t(".\n");
    b
}

fn hearaid2(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t("LOSS & DAMAGE CLAIM — manufacturer warranty\nWearer: ");
    say_name(&mut b, r, p);
    b.t("\nAddress: ");
    addr(&mut b, p, ", ");
    b.t("\nLost aid serial: ")
        .l(Device, &serial(r))
        .t(" (right, Phonak Lumity 90)\n");
    b.t("Date lost: ")
        .l(Date, &sdate(r))
        .t("   Replacement serial: ")
        .l(Device, &serial(r));
    b.t("\nDeductible $150 paid by ")
        .l(Card, &luhn_card(r))
        .t("\nContact: ")
        .l(Phone, &p.phone);
    b.t(" or ")
        .l(Email, &p.email)
        .t(&format!("\n{} — claim form 3 of 3\n", lookalike(r)));
    b
}

fn needlestk2(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let (emp, _) = staff(r);
    b.t("subject: sharps injury 5W — source pt info\n\nhi employee health,\n");
    b.t(&format!(
        "{} stuck herself with a used lancet ",
        emp.split(' ').next().unwrap()
    ));
    b.t("at 0215 in bed ").l(Room, &room(r)).t(". source is ");
    b.n(&full(p).to_lowercase()).t(", mrn ").l(Mrn, &p.mrn);
    b.t(", ")
        .l(Age, &age90(r))
        .t(" yo, hx hep C per chart. consent for source testing signed by pt's son ");
    let (sf, sl) = name(r);
    b.n(&format!("{sf} {sl}"))
        .t(" (")
        .l(Phone, &phone(r))
        .t(").\n");
    b.t("she's heading to the ED now. icd W46.1XXA, not reportable per OSHA 300? pls advise\n");
    b
}

fn chaplain2(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t("PRAYER REQUEST CARD (chapel box)\nfor: ");
    b.n(&p.first.to_lowercase());
    b.t(" — my ");
    b.t(r.pick(&["grandpa", "auntie", "great-grandma"])).t(" ");
    b.n(&full(p))
        .t(", ")
        .l(Age, &age90(r))
        .t(", 4th floor bed ")
        .l(Room, &room(r));
    b.t("\nfrom: ");
    let (f2, l2) = name(r);
    b.n(&format!("{f2} {l2}"))
        .t(", text me ")
        .l(Phone, &phone(r));
    b.t("\nplease pray for peace ✝️ she loves Psalm 23\n");
    b
}

fn amend2(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t("Larkspur Valley Health — Health Information Management\n");
    b.l(Date, &sdate(r)).t("\n\n");
    say_name(&mut b, r, p);
    b.t("\n");
    addr(&mut b, p, "\n");
    b.t("\n\nRe: your request dated ")
        .l(Date, &sdate(r))
        .t(", record ")
        .l(Mrn, &p.mrn);
    b.t("\n\nDear ")
        .t(if p.female { "Ms. " } else { "Mr. " })
        .n(&p.last);
    b.t(",\nWe have DENIED in part your request to amend the note of ");
    b.l(Date, &sdate(r))
        .t(" because the entry is accurate and complete. You may file a\n");
    b.t("statement of disagreement. Questions: ")
        .l(Phone, &phone(r))
        .t(" or fax ")
        .l(Fax, &phone(r));
    b.t(".\n");
    b
}

fn subpoena2(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t("AUTHORIZATION / NOTICE OF RECORDS DEPOSITION\nDeponent: Custodian of Records\nRecords pertaining to: ");
    b.n(&full(p)).t(", a/k/a ");
    b.n(&format!("{}. {}", &p.first[..1], p.last));
    b.t("\nDOB ")
        .l(Date, &date(r, p.dob))
        .t("; last four of SSN omitted; full SSN ")
        .l(Ssn, &ssn(r));
    b.t("\nState ID / DL: ")
        .l(License, &licence(r))
        .t("   Health plan ID: ")
        .l(HealthPlan, &p.plan);
    b.t("\nDeposition on ")
        .l(Date, &sdate(r))
        .t(" at 9:30 a.m., or mail certified copies to Harlan & Bexley LLP.\n");
    b.t("Plaintiff's address: ");
    addr(&mut b, p, ", ");
    b.t("\n");
    b
}

fn collect2(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t("COLLECTOR NOTES — acct ").l(Account, &p.acct).t("\n");
    b.l(Date, &sdate(r))
        .t(" 11:02 outbound to ")
        .l(Phone, &p.phone)
        .t(", LVM\n");
    b.l(Date, &sdate(r))
        .t(" 15:47 inbound from ")
        .l(Phone, &phone(r))
        .t(", spoke w/ debtor ");
    say_name(&mut b, r, p);
    b.t(", verified DOB ")
        .l(Date, &date(r, p.dob))
        .t(" and SSN ")
        .l(Ssn, &ssn(r));
    b.t(". PTP $75/mo starting Friday, card on file ")
        .l(Card, &luhn_card(r));
    b.t(".\nDebtor's employer: Tri-County Feed & Seed. Vehicle on skip trace: ")
        .l(Vehicle, &plate(r));
    b.t("\n");
    b
}

fn pafax2(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t("ALDERGROVE MEDlCAID PLAN — PHARMACY PA DETERMINATION\nFAX TO: ")
        .l(Fax, &phone(r));
    b.t("\n\nMEMBER: ")
        .n(&p.first.to_uppercase())
        .t(" ")
        .n(&p.last.to_uppercase());
    b.t("   MEMBER #: ")
        .l(HealthPlan, &p.plan)
        .t("\nDOB: ")
        .l(Date, &date(r, p.dob));
    b.t("\nDRUG: Ozempic 0.5 mg/dose pen  NDC 0169-4132-12   QTY 1  DS 28\nSTATUS: APPROVED  EFF ");
    b.l(Date, &sdate(r)).t(" THRU ").l(Date, &sdate(r));
    b.t(&format!(
        "\nPA REF {} (not a member id)\nQuestions 8a-5p M-F\n",
        r.digits(11)
    ));
    b
}

fn infusdel2(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t("PUMP RETURN / PICK-UP SLIP\n")
        .l(Date, &sdate(r))
        .t(" — driver route 7\n");
    b.t("From: ");
    say_name(&mut b, r, p);
    b.t(", ")
        .l(Address, &p.street)
        .t(", ")
        .l(Address, p.city)
        .t("\n");
    b.t("Returned: Curlin 6000 CMS pump SN ")
        .l(Device, &serial(r));
    b.t(", pole clamp, 2 sharps containers. Unused: vancomycin 1.25 g x 2 (Lot ");
    b.t(&format!("{}{}", r.digits(3), r.letters(2)));
    b.t(")\nPatient ph ")
        .l(Phone, &p.phone)
        .t("  Acct ")
        .l(Account, &p.acct)
        .t("\n");
    b
}

fn dialride2(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t("[dispatch] ")
        .l(Date, &sdate(r))
        .t(" 05:41 unit 14: no-show at ");
    b.l(Address, &p.street)
        .t(" for ")
        .n(&p.first.to_uppercase())
        .t(" ")
        .n(&p.last.to_uppercase());
    b.t(", called ").l(Phone, &p.phone).t(" no answer\n");
    b.t("[dispatch] 05:49 daughter ");
    let (df, dl) = name(r);
    b.n(&format!("{df} {dl}"))
        .t(" says pt admitted last night, room ")
        .l(Room, &room(r));
    b.t(" — cancel MWF until further notice\n[dispatch] 05:50 copy, chair 11 released\n");
    b
}

fn interp2(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t("INTERPRETER REQUEST FORM\nLanguage: ").t(r.pick(&[
        "Amharic",
        "Rohingya",
        "Marshallese",
        "Chuukese",
        "Pashto",
    ]));
    b.t("\nPatient: ");
    say_name(&mut b, r, p);
    b.t("\nDOB: ")
        .l(Date, &date(r, p.dob))
        .t("   MRN: ")
        .l(Mrn, &p.mrn);
    b.t("\nAppointment: ")
        .l(Date, &sdate(r))
        .t(" 10:00–11:30, Suite 300 (clinic, not a room)\n");
    b.t("Contact: ").l(Phone, &p.phone).t("  Requested by: Teodora Vasquez-Ilunga, MSW\nNotes: pt is Deaf-blind, needs tactile ASL too\n");
    b
}

fn ics2(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t("BEGIN:VEVENT\r\nSUMMARY:Pre-op call: ")
        .n(&p.last.to_uppercase())
        .t(", ")
        .n(&p.first);
    b.t("\r\n  – bring ID card ")
        .l(HealthPlan, &p.plan)
        .t("\r\nDTSTART;VALUE=DATE:")
        .l(Date, &ics_date(r));
    b.t("\r\nDTEND;VALUE=DATE:").l(Date, &ics_date(r));
    b.t("\r\nLOCATION:Larkspur Valley Health\r\nDESCRIPTION:DOB ")
        .l(Date, &date(r, p.dob));
    b.t(" – home ")
        .l(Phone, &p.phone)
        .t("\\n– CPT 47562\r\nRRULE:FREQ=WEEKLY;COUNT=2\r\nEND:VEVENT\r\n");
    b
}

fn tsvmerge2(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t("Pharmacy delivery sheet\t\t\t\n\tRecipient\t\tAddress\t\nRx#\tName\tDOB\tStreet\tCity\tZIP\n");
    let mut first = true;
    for _ in 0..r.range(2, 3) {
        let q = if first { None } else { Some(patient(r)) };
        let x = q.as_ref().unwrap_or(p);
        first = false;
        b.t(&r.digits(7))
            .t("\t")
            .n(&full(x))
            .t("\t")
            .l(Date, &date(r, x.dob))
            .t("\t");
        b.l(Address, &x.street)
            .t("\t")
            .l(Address, x.city)
            .t("\t")
            .l(Zip, &x.zip)
            .t("\n");
    }
    b
}

fn obsidian2(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let d = service_date(r);
    b.t("# Daily note ")
        .l(Date, &format!("{}-{:02}-{:02}", d.0, d.1, d.2));
    b.t("\n\n| patient | dob | room | todo |\n|---|---|---|---|\n");
    for i in 0..r.range(2, 3) {
        let q = if i == 0 { None } else { Some(patient(r)) };
        let x = q.as_ref().unwrap_or(p);
        b.t("| [[")
            .n(&full(x))
            .t("]] | ")
            .l(Date, &date(r, x.dob))
            .t(" | ")
            .l(Room, &room(r));
        b.t(" | ")
            .t(r.pick(&["call family", "PT eval", "d/c Friday", "- [ ] labs"]))
            .t(" |\n");
    }
    b.t("\n> [!note] ask ")
        .n(&p.first)
        .t("'s son about the ")
        .t("DNR form #MOLST\n");
    b
}

fn htmlmail2(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t("<div>Thanks, see below.</div><div><br></div><div>-----Original Message-----<br>From: ");
    b.n(&full(p))
        .t(" &lt;")
        .l(Email, &p.email)
        .t("&gt;<br>Sent: ");
    b.t(r.pick(&["Monday", "Wednesday", "Saturday"]))
        .t(", ")
        .l(Date, &sdate(r));
    b.t(" 8:14 PM<br>Subject: refill</div><div><br></div><div>hi,&nbsp;it's ")
        .n(&p.first);
    b.t(" again. dob ")
        .l(Date, &date(r, p.dob))
        .t(".&nbsp;my new address is ")
        .l(Address, &p.street);
    b.t(",&nbsp;")
        .l(Address, p.city)
        .t(" ")
        .l(Zip, &p.zip)
        .t("<br>cell&nbsp;")
        .l(Phone, &p.phone);
    b.t("</div>\n");
    b
}

fn vm2text2(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t("New voicemail (0:48) from ")
        .l(Phone, &phone(r))
        .t("\n\"Hey it's ")
        .n(&p.first);
    b.t(" with the lavender ")
        .t("(Larkspur?) clinic no sorry this is ")
        .n(&p.first.to_lowercase());
    b.t(" ")
        .n(&p.last.to_lowercase())
        .t(" my member number is ");
    b.l(HealthPlan, &p.plan)
        .t(" I need the form for the bus pass my birthday is ");
    b.l(Date, &date(r, p.dob))
        .t(" okay call me at ")
        .l(Phone, &p.phone)
        .t(" bye\"\n");
    b
}

fn vtt2(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    let (sname, _) = staff(r);
    b.t("WEBVTT\n\n00:00:00.000 --> 00:00:03.900\n<v ")
        .n(&p.last)
        .t(", ")
        .n(&p.first);
    b.t(" (Guest)>Hi, can you hear me?</v>\n\n00:00:04.000 --> 00:00:09.250\n<v ")
        .t(sname);
    b.t(">Yes. Is your mailing address still ZIP code ")
        .l(Zip, &p.zip)
        .t("?</v>\n\n");
    b.t("00:00:09.300 --> 00:00:15.000\n<v ")
        .n(&p.last)
        .t(", ")
        .n(&p.first);
    b.t(" (Guest)>Yes and my email is ")
        .l(Email, &p.email)
        .t(".</v>\n");
    b
}

fn zoom2(r: &mut Rng, p: &P) -> B {
    let mut b = B::default();
    b.t("From  ")
        .n(&full(p))
        .t(" : can my ")
        .t(r.pick(&["wife", "husband", "daughter"]))
        .t(" ");
    let (hf, _) = name(r);
    b.n(&hf).t(" join? she's on ").l(Phone, &phone(r)).t("\n");
    b.t("From  Juniper Rathbone  to  ")
        .n(&full(p))
        .t("(privately) : yes, send her ");
    b.l(
        Url,
        &format!(
            "https://larkspurvalley.zoom.us/w/{}?tk=pt-{}",
            r.digits(11),
            p.mrn
        ),
    );
    b.t("\nFrom  ")
        .n(&full(p))
        .t(" : thx. my chart # is ")
        .l(Mrn, &p.mrn)
        .t("\n");
    b
}

type Family = fn(&mut Rng, &P) -> B;

/// A family's second form, chosen for two documents in five, so no family is one template.
const SECOND: [Option<Family>; 26] = [
    None,
    Some(partner2),
    Some(tbtrace2),
    Some(nbs2),
    Some(hearaid2),
    None,
    Some(needlestk2),
    Some(chaplain2),
    None,
    Some(amend2),
    Some(subpoena2),
    Some(collect2),
    Some(pafax2),
    Some(infusdel2),
    Some(dialride2),
    Some(interp2),
    Some(ics2),
    Some(tsvmerge2),
    Some(obsidian2),
    Some(htmlmail2),
    Some(vm2text2),
    Some(vtt2),
    Some(zoom2),
    None,
    None,
    None,
];

const MAKERS: [Family; 26] = [
    woundvac, partner, tbtrace, nbs, hearaid, sportsphy, needlestk, chaplain, advocate, amend,
    subpoena, collect, pafax, infusdel, dialride, interp, ics, tsvmerge, obsidian, htmlmail,
    vm2text, vtt, zoom, es_pt, gr_he, uk_fi_th,
];

/// `n` documents from `seed`, the families in turn; the roster names the patient of every
/// third document.
pub fn generate(seed: u64, n: usize) -> Set {
    let mut r = Rng(seed);
    let mut docs = Vec::with_capacity(n);
    let mut roster = Vec::new();
    for i in 0..n {
        let f = i % FAMILIES.len();
        let p = patient(&mut r);
        let make = match SECOND[f] {
            Some(second) if r.chance(40) => second,
            _ => MAKERS[f],
        };
        let b = make(&mut r, &p);
        if i % 3 == 0 {
            roster.push(full(&p));
        }
        docs.push(Doc {
            family: FAMILIES[f],
            text: b.text,
            labels: b.labels,
        });
    }
    let keep = STAFF.iter().chain(ORGS).map(|s| s.to_string()).collect();
    Set { docs, roster, keep }
}
