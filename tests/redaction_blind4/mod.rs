//! The fourth blind evaluation set for the PHI redactor: a seeded generator of clinic documents
//! in 20 families not used by the earlier sets (X12 837/835 segments, C-CDA XML, FHIR JSON,
//! prenatal notes, infusion schedules, dialysis run sheets, hospice visits, workers' comp
//! letters, school nurse logs, records requests, EOB statements, interpreter notes, trial
//! screening logs, ophthalmology, physical therapy, fax covers, vCards and contact cards,
//! calendar invites, Spanish patient messages, emails with quoted replies), written without
//! reading the redactor's rules or the other sets.
//!
//! Every identifier is labelled byte-exactly. Conventions:
//! - Person: the patient, relatives and household, and other people who are not staff of the
//!   practice (attorneys, adjusters, supervisors, teachers): the redactor cannot tell them
//!   from relatives, and they point at the patient. Staff and the practice (the keep list),
//!   payers, employers and schools are not labelled. "First M. Last" is one label, "Last,
//!   First" two; titles (Mr., Dr.) and "Baby Girl" stay outside labels.
//! - Every phone and fax number and every email address is labelled, whoever's it is; the
//!   extension after a number is not part of the label.
//! - Every day-precision date is labelled (also service dates, EDDs, the date part of a
//!   timestamp, X12 and HL7-style compact dates); month/year alone, times, weekdays and
//!   relative dates are not.
//! - Ages only from 90, by their number; rooms, beds and infusion/dialysis chairs by their
//!   number.
//! - Street line (with its unit) and city are Address, ZIP or ZIP+4 is Zip; states are not.
//! - Study subject and screening ids are re-identification codes (Safe Harbor 164.514(c)) and
//!   stay, like NPIs, CPT/ICD-10/HCPCS/NDC/LOINC codes, lots, PO/order/invoice numbers, OIDs,
//!   dosages, vitals and visual acuities, and a document template's version date (C-CDA
//!   `templateId extension`: the specification's, not a person's).

use opsdesk::governance::redact::Kind;

use crate::redaction_harness::{Doc, Label, Set};

pub const FAMILIES: [&str; 20] = [
    "x12",
    "ccda",
    "fhir",
    "prenatal",
    "infusion",
    "dialysis",
    "hospice",
    "workcomp",
    "school",
    "roi",
    "eob",
    "interpret",
    "trial",
    "ophtho",
    "ptnote",
    "faxcover",
    "vcard",
    "calendar",
    "spanish",
    "reply",
];

// ---------------------------------------------------------------------------------------------
// Pools (fresh for this set).

const FEMALE: &[&str] = &[
    "Adaeze",
    "Siobhan",
    "Nkechi",
    "Ingrid",
    "Yesenia",
    "Marisol",
    "Thuy",
    "Oksana",
    "Aiyana",
    "Leilani",
    "Farah",
    "Beatriz",
    "Zoë",
    "Renée",
    "Dagny",
    "Hana",
    "Ngozi",
    "Svetlana",
    "Guadalupe",
    "Bronwyn",
    "Wanjiru",
    "Esperanza",
    "Anjali",
    "Kateryna",
    "Maëlle",
    "Noor",
    "Xiomara",
    "Chiamaka",
    "Agnieszka",
    "Saoirse",
    "Rose",
    "Faith",
    "Hope",
    "Joy",
    "June",
    "April",
    "Summer",
    "Crystal",
    "Amber",
    "Ivy",
    "Pearl",
    "Iris",
    "Dawn",
    "Holly",
    "Robin",
    "Destiny",
    "Mercy",
    "Precious",
    "Bernadette",
    "Mildred",
    "Eunice",
    "Wilhelmina",
    "Ottilie",
    "Jo-Ellen",
    "Mary-Kate",
    "Hương",
];

const MALE: &[&str] = &[
    "Tobias",
    "Olufemi",
    "Xavier",
    "Ramón",
    "Dmitri",
    "Kwabena",
    "Hamza",
    "Tariq",
    "Matthias",
    "Jiho",
    "Takeshi",
    "Bartholomew",
    "Eamon",
    "Cormac",
    "Anselm",
    "Leandro",
    "Bogdan",
    "Thanh",
    "Joaquín",
    "Søren",
    "Jean-Luc",
    "Mustafa",
    "Chidi",
    "Rangi",
    "Will",
    "Bill",
    "Rich",
    "Mark",
    "Frank",
    "Grant",
    "Chase",
    "Hunter",
    "Lance",
    "Rocky",
    "Sonny",
    "Dusty",
    "Pierce",
    "Miles",
    "Carter",
    "Cash",
    "King",
    "Major",
    "Bishop",
    "Earl",
    "Royal",
    "Virgil",
    "Thaddeus",
    "Ignatius",
    "Wendell",
    "Khoa",
];

const SURNAMES: &[&str] = &[
    "Achterberg",
    "Balogun",
    "Castellanos",
    "Dubois",
    "Eze",
    "Fitzgerald-Moore",
    "Gonçalves",
    "Haddad",
    "Ibarra",
    "Jablonski",
    "Kowalczyk",
    "Lindqvist",
    "Mbeki",
    "Nakashima",
    "O'Sullivan",
    "Papadopoulos",
    "Quintero",
    "Rahimi",
    "Szabó",
    "Tran",
    "Villanueva",
    "Wojcik",
    "Xiong",
    "Yilmaz",
    "Zelenko",
    "de la Cruz",
    "van der Berg",
    "St. Clair",
    "al-Rashid",
    "Le",
    "Ng",
    "Vu",
    "Bùi",
    "Nwachukwu",
    "Kealoha",
    "Whitehorse",
    "Begay",
    "Ó Briain",
    "Müller",
    "Østergaard",
    "Nguyễn",
    "Đặng",
    "McAllister",
    "DeShields",
    "LaRue",
    "Oyelaran-Smith",
    "Baker",
    "Hill",
    "Wells",
    "Church",
    "Parks",
    "Fox",
    "Young",
    "Rivers",
    "Stone",
    "Snow",
    "Frost",
    "Lamb",
    "Short",
    "Love",
    "Street",
    "Wood",
    "Field",
    "House",
    "Bird",
    "Page",
    "Cook",
    "Bell",
    "Moody",
    "Sharp",
    "Swift",
    "Sterling",
];

/// Short forms patients use for themselves or relatives use for them.
const NICKS: &[(&str, &str)] = &[
    ("Bartholomew", "Bart"),
    ("Guadalupe", "Lupe"),
    ("Wilhelmina", "Willa"),
    ("Bernadette", "Bernie"),
    ("Olufemi", "Femi"),
    ("Adaeze", "Ada"),
    ("Kateryna", "Katya"),
    ("Svetlana", "Sveta"),
    ("Matthias", "Matt"),
    ("Thaddeus", "Tad"),
    ("Ignatius", "Iggy"),
    ("Chiamaka", "Amaka"),
    ("Dmitri", "Dima"),
    ("Mildred", "Millie"),
    ("Esperanza", "Espy"),
    ("Xiomara", "Xio"),
    ("Agnieszka", "Aga"),
    ("Kwabena", "Kobby"),
    ("Mary-Kate", "MK"),
    ("Takeshi", "Tak"),
];

/// Staff of the practices (the keep list): never labelled.
const STAFF: &[(&str, &str)] = &[
    ("Helena", "Voss"),
    ("Sunil", "Varghese"),
    ("Rachel", "Feldstein"),
    ("Theo", "Lindgren"),
    ("Imani", "Okwuosa"),
    ("Carmen", "Olivares"),
    ("Jonah", "Whitcombe"),
    ("Mireille", "Fontaine"),
    ("Desmond", "Achebe"),
    ("Yuki", "Tanabe"),
    ("Aurelio", "Benedetti"),
    ("Nadia", "Petrova"),
    ("Owen", "Pritchett"),
    ("Beatrix", "Holloway"),
    ("Kwame", "Asante"),
    ("Lorna", "McTavish"),
    ("Farida", "Sayeed"),
    ("Pavel", "Horvath"),
];

const CLINICS: &[&str] = &[
    "Lakeshore Oncology Associates",
    "Prairie View Dialysis",
    "Harborlight Hospice",
    "Cedar Ridge Occupational Health",
    "Northfield Women's Health",
    "Bluestem Eye Institute",
    "Riverbend Physical Therapy",
    "Great Plains Cardiology",
    "Maplewood Family Medicine",
];

const PAYERS: &[&str] = &[
    "Keystone Mutual Health",
    "Great Plains BlueCare",
    "Summit Workers' Comp Insurance",
    "Heartland Medicaid Partners",
    "Evergreen Medicare Advantage",
];

const EMPLOYERS: &[&str] = &[
    "Brightline Logistics",
    "Tri-County Poultry",
    "Hawthorne Steel Fabricators",
    "Kessler Grain Co-op",
    "Apex Roofing LLC",
    "Mid-Valley Transit",
    "Sunbelt Distribution Center",
];

/// (city, state, first three ZIP digits)
const CITIES: &[(&str, &str, &str)] = &[
    ("Kettering", "OH", "454"),
    ("Bozeman", "MT", "597"),
    ("Ypsilanti", "MI", "481"),
    ("Chillicothe", "OH", "456"),
    ("Tupelo", "MS", "388"),
    ("Paducah", "KY", "420"),
    ("Walla Walla", "WA", "993"),
    ("Eau Claire", "WI", "547"),
    ("Las Cruces", "NM", "880"),
    ("Coeur d'Alene", "ID", "838"),
    ("Bangor", "ME", "044"),
    ("Kalamazoo", "MI", "490"),
    ("Sioux Falls", "SD", "571"),
    ("Muncie", "IN", "473"),
    ("Terre Haute", "IN", "478"),
    ("Pueblo", "CO", "810"),
    ("Grand Forks", "ND", "582"),
    ("Dubuque", "IA", "520"),
    ("Hattiesburg", "MS", "394"),
    ("Hilo", "HI", "967"),
    ("St. Cloud", "MN", "563"),
    ("Normal", "IL", "617"),
    ("Independence", "MO", "640"),
    ("Hope", "AR", "718"),
    ("Paris", "TX", "754"),
    ("Española", "NM", "875"),
    ("Saginaw", "MI", "486"),
];

const STREETS: &[&str] = &[
    "Quarry Hollow",
    "Tamarack",
    "Old Mill",
    "Persimmon",
    "Kinnickinnic",
    "Buckeye",
    "Larkspur",
    "Winding Brook",
    "Hemlock Ridge",
    "Fairgrounds",
    "Osage",
    "Bayou Vista",
    "Sandhill Crane",
    "Cottonwood",
    "Juniper Flats",
    "Pawnee",
    "Mockingbird",
    "Lighthouse",
    "Prospect",
    "Orchard",
    "Church",
    "Main",
    "Martin Luther King Jr",
    "Calle del Sol",
    "Camino Real",
    "7th",
    "14th",
    "Water Tower",
];

const SUFFIXES: &[&str] = &[
    "Rd", "Road", "St", "Street", "Ave", "Avenue", "Blvd", "Ln", "Lane", "Ct", "Dr", "Drive",
    "Way", "Ter", "Pkwy", "Cir", "Trail", "Pike",
];

const CPT: &[&str] = &[
    "96413", "96415", "96417", "99213", "99214", "97110", "97140", "97530", "92014", "66984",
    "90935", "59425", "99349", "36415", "85025", "80053",
];
const ICD: &[&str] = &[
    "C50.911", "E11.9", "N18.6", "Z34.02", "I50.9", "S39.012A", "M75.101", "H25.11", "J45.909",
    "Z51.11", "C34.90", "G30.9", "Z3A.28", "O24.419",
];
const HCPCS: &[&str] = &[
    "J9000", "J9070", "J9267", "J1100", "G0463", "J0885", "Q5106", "A4216",
];
const LOINC: &[&str] = &[
    "4548-4", "58410-2", "2160-0", "718-7", "33914-3", "1558-6", "2345-7",
];
const DRUGS: &[&str] = &[
    "ondansetron 8 mg",
    "paclitaxel 175 mg/m2",
    "pembrolizumab 200 mg",
    "apixaban 5 mg",
    "furosemide 40 mg",
    "morphine 5 mg SL",
    "prednisolone 1%",
    "albuterol 90 mcg",
    "sevelamer 800 mg",
    "lorazepam 0.5 mg",
    "metformin 1000 mg",
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
const MESES: [&str; 12] = [
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
const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];
const DIAS: [&str; 7] = [
    "domingo",
    "lunes",
    "martes",
    "miércoles",
    "jueves",
    "viernes",
    "sábado",
];

// ---------------------------------------------------------------------------------------------
// Randomness, dates, text building.

/// SplitMix64: small, seeded, deterministic (no rand crate in dev-dependencies).
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
    /// lo..=hi
    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.below((hi - lo + 1) as usize) as u32
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
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
    /// Upper-case letters (no I, O, Q) and digits.
    fn alnum(&mut self, n: usize) -> String {
        const A: &[u8] = b"ABCDEFGHJKLMNPRSTUVWXYZ0123456789";
        (0..n).map(|_| char::from(A[self.below(A.len())])).collect()
    }
    fn letters(&mut self, n: usize) -> String {
        const A: &[u8] = b"ABCDEFGHJKLMNPRSTUVWXYZ";
        (0..n).map(|_| char::from(A[self.below(A.len())])).collect()
    }
}

#[derive(Clone, Copy)]
struct Date {
    y: u32,
    m: u32,
    d: u32,
}

fn days_in(y: u32, m: u32) -> u32 {
    match m {
        2 if (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl Date {
    fn random(r: &mut Rng, y0: u32, y1: u32) -> Date {
        let y = r.range(y0, y1);
        let m = r.range(1, 12);
        let d = r.range(1, days_in(y, m));
        Date { y, m, d }
    }
    /// Sakamoto's method: 0 is Sunday.
    fn weekday(self) -> usize {
        const T: [u32; 12] = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4];
        let y = if self.m < 3 { self.y - 1 } else { self.y };
        ((y + y / 4 - y / 100 + y / 400 + T[self.m as usize - 1] + self.d) % 7) as usize
    }
    fn plus(self, days: u32) -> Date {
        let mut d = self;
        for _ in 0..days {
            d.d += 1;
            if d.d > days_in(d.y, d.m) {
                d.d = 1;
                d.m += 1;
                if d.m > 12 {
                    d.m = 1;
                    d.y += 1;
                }
            }
        }
        d
    }
    fn minus(self, days: u32) -> Date {
        let mut d = self;
        for _ in 0..days {
            if d.d > 1 {
                d.d -= 1;
            } else {
                if d.m > 1 {
                    d.m -= 1;
                } else {
                    d.m = 12;
                    d.y -= 1;
                }
                d.d = days_in(d.y, d.m);
            }
        }
        d
    }
    fn age_on(self, today: Date) -> u32 {
        let mut a = today.y - self.y;
        if (today.m, today.d) < (self.m, self.d) {
            a -= 1;
        }
        a
    }
    fn compact(self) -> String {
        format!("{:04}{:02}{:02}", self.y, self.m, self.d)
    }
    fn iso(self) -> String {
        format!("{:04}-{:02}-{:02}", self.y, self.m, self.d)
    }
    fn us(self) -> String {
        format!("{:02}/{:02}/{:04}", self.m, self.d, self.y)
    }
    fn mon(self) -> &'static str {
        &MONTHS[self.m as usize - 1][..3]
    }
    fn month(self) -> &'static str {
        MONTHS[self.m as usize - 1]
    }
    /// Any of the ways a full date is written in English clinic text.
    fn any(self, r: &mut Rng) -> String {
        let (y, m, d) = (self.y, self.m, self.d);
        match r.below(13) {
            0 | 1 => self.us(),
            2 => format!("{m}/{d}/{y}"),
            3 => format!("{m}/{d}/{:02}", y % 100),
            4 => self.iso(),
            5 => format!("{d:02}-{}-{y}", self.mon()),
            6 => format!("{} {d}, {y}", self.month()),
            7 => format!("{} {d} {y}", self.mon()),
            8 => format!("{d} {} {y}", self.month()),
            9 => format!("{m:02}-{d:02}-{y}"),
            10 => format!("{}. {d}, {y}", self.mon()),
            11 => format!("{d}-{}-{:02}", self.mon().to_uppercase(), y % 100),
            _ => format!("{m}.{d}.{y}"),
        }
    }
    /// A date of this year, written without the year.
    fn short(self, r: &mut Rng) -> String {
        match r.below(4) {
            0 => format!("{}/{}", self.m, self.d),
            1 => format!("{} {}", self.mon(), self.d),
            2 => format!("{} {}", self.month(), self.d),
            _ => {
                let suf = match self.d {
                    1 | 21 | 31 => "st",
                    2 | 22 => "nd",
                    3 | 23 => "rd",
                    _ => "th",
                };
                format!("{} {}{suf}", self.month(), self.d)
            }
        }
    }
    fn es(self) -> String {
        format!("{} de {} de {}", self.d, MESES[self.m as usize - 1], self.y)
    }
}

#[derive(Default)]
struct W {
    text: String,
    labels: Vec<Label>,
}

impl W {
    fn t(&mut self, s: &str) -> &mut W {
        self.text.push_str(s);
        self
    }
    fn l(&mut self, kind: Kind, s: &str) -> &mut W {
        let start = self.text.len();
        self.text.push_str(s);
        self.labels.push(Label {
            start,
            end: self.text.len(),
            kind,
        });
        self
    }
}

use Kind::{
    Account, Address, Age, Card, Date as D, Device, Email, Fax, HealthPlan, Ip, License, Mrn,
    Person as P, Phone, Room, Ssn, Url, Vehicle, Zip,
};

fn fold(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'ë' | 'é' | 'è' | 'ê' | 'ễ' => 'e',
            'ç' => 'c',
            'ó' | 'ò' | 'ö' | 'ø' | 'ơ' => 'o',
            'Ó' => 'O',
            'Ø' => 'O',
            'ñ' => 'n',
            'å' | 'ã' | 'á' | 'ặ' => 'a',
            'ü' | 'ù' | 'ú' | 'ư' => 'u',
            'í' | 'ị' => 'i',
            'Đ' => 'D',
            'đ' => 'd',
            c => c,
        })
        .collect()
}

/// Lower-case letters only, for email local parts and URLs.
fn slug(s: &str) -> String {
    fold(s)
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Luhn check digit for `body` (the digits before it).
fn luhn_digit(body: &str) -> u32 {
    let mut sum = 0;
    for (i, c) in body.chars().rev().enumerate() {
        let mut v = c.to_digit(10).unwrap();
        if i % 2 == 0 {
            v *= 2;
            if v > 9 {
                v -= 9;
            }
        }
        sum += v;
    }
    (10 - sum % 10) % 10
}

// ---------------------------------------------------------------------------------------------
// People.

#[derive(Clone)]
struct Name {
    first: &'static str,
    middle: Option<&'static str>,
    last: &'static str,
}

impl Name {
    fn full(&self) -> String {
        format!("{} {}", self.first, self.last)
    }
    fn nick(&self) -> &'static str {
        NICKS
            .iter()
            .find(|(f, _)| *f == self.first)
            .map_or(self.first, |(_, n)| n)
    }
    fn initial(&self) -> Option<String> {
        self.middle
            .map(|m| format!("{}.", m.chars().next().unwrap()))
    }
}

struct Rel {
    name: Name,
    rel: &'static str,
    phone: String,
}

struct Patient {
    name: Name,
    female: bool,
    dob: Date,
    phone: String,
    email: String,
    street: String,
    unit: Option<String>,
    city: &'static str,
    state: &'static str,
    zip: String,
    zip4: String,
    mrn: String,
    member: String,
    acct: String,
    ssn: String,
    rels: Vec<Rel>,
}

fn phone_digits(r: &mut Rng) -> String {
    loop {
        let a = format!("{}{}{}", r.range(2, 9), r.below(9), r.below(10));
        if a.ends_with("11") {
            continue;
        }
        return format!("{a}{}{}{}", r.range(2, 9), r.digits(2), r.digits(4));
    }
}

/// A ten-digit number in one of the ways people write it.
fn fmt_phone(r: &mut Rng, d: &str) -> String {
    let (a, e, l) = (&d[..3], &d[3..6], &d[6..]);
    match r.below(11) {
        0 | 1 => format!("({a}) {e}-{l}"),
        2 | 3 => format!("{a}-{e}-{l}"),
        4 => format!("{a}.{e}.{l}"),
        5 => format!("+1 {a} {e} {l}"),
        6 => format!("+1-{a}-{e}-{l}"),
        7 => format!("{a}{e}{l}"),
        8 => format!("{a} {e} {l}"),
        9 => format!("1-{a}-{e}-{l}"),
        _ => format!("({a}){e}-{l}"),
    }
}

fn ssn(r: &mut Rng) -> String {
    format!(
        "{}{}-{:02}-{:04}",
        r.range(1, 8),
        r.digits(2),
        r.range(1, 99),
        r.range(1, 9999)
    )
}

fn card(r: &mut Rng) -> String {
    let (prefix, len) = match r.below(3) {
        0 => ("4".to_string(), 16),
        1 => (format!("5{}", r.range(1, 5)), 16),
        _ => (format!("3{}", r.pick(&[4, 7])), 15),
    };
    let body = format!("{prefix}{}", r.digits(len - 1 - prefix.len()));
    let full = format!("{body}{}", luhn_digit(&body));
    if len == 15 {
        return match r.below(2) {
            0 => format!("{} {} {}", &full[..4], &full[4..10], &full[10..]),
            _ => full,
        };
    }
    match r.below(3) {
        0 => format!(
            "{} {} {} {}",
            &full[..4],
            &full[4..8],
            &full[8..12],
            &full[12..]
        ),
        1 => format!(
            "{}-{}-{}-{}",
            &full[..4],
            &full[4..8],
            &full[8..12],
            &full[12..]
        ),
        _ => full,
    }
}

/// A plausible NPI (Luhn over the 80840 prefix): a lookalike that must stay.
fn npi(r: &mut Rng) -> String {
    let body = format!("{}{}", r.range(1, 2), r.digits(8));
    format!("{body}{}", luhn_digit(&format!("80840{body}")))
}

fn ndc(r: &mut Rng) -> String {
    format!("{}-{}-{}", r.digits(5), r.digits(4), r.digits(2))
}

fn lot(r: &mut Rng) -> String {
    format!("{}{}{}", r.digits(1), r.letters(1), r.digits(4))
}

fn vin(r: &mut Rng) -> String {
    format!(
        "{}{}{}{}",
        r.pick(&["1FU", "1FT", "3HS", "1GC", "5TF", "2T1"]),
        r.alnum(6),
        r.digits(1),
        r.alnum(7)
    )
}

fn plate(r: &mut Rng) -> String {
    match r.below(5) {
        0 => format!("{}{}", r.digits(1), r.letters(3)) + &r.digits(3),
        1 => format!("{}-{}", r.letters(3), r.digits(4)),
        2 => format!("{} {}", r.letters(3), r.digits(3)),
        3 => format!("{}{}", r.digits(3), r.letters(3)),
        _ => format!("{}-{}{}", r.letters(2), r.digits(3), r.letters(1)),
    }
}

fn ip(r: &mut Rng) -> String {
    format!(
        "{}.{}.{}.{}",
        r.pick(&[24, 47, 68, 73, 98, 108, 174, 184, 207]),
        r.range(1, 254),
        r.range(0, 254),
        r.range(2, 254)
    )
}

fn device_serial(r: &mut Rng) -> String {
    match r.below(4) {
        0 => format!("{}{}{}", r.letters(3), r.digits(6), r.letters(1)),
        1 => format!("{}-{}-{}", r.digits(2), r.digits(5), r.digits(2)),
        2 => r.alnum(10),
        _ => format!("{}{}", r.digits(4), r.alnum(4)),
    }
}

fn licence(r: &mut Rng, state: &str) -> String {
    match state {
        "IL" => format!(
            "{}{}-{}-{}",
            r.letters(1),
            r.digits(3),
            r.digits(4),
            r.digits(4)
        ),
        "OH" | "MI" => format!("{}{}", r.letters(2), r.digits(6)),
        "WA" => format!("WDL{}", r.alnum(9)),
        _ => match r.below(2) {
            0 => r.digits(9),
            _ => format!("{}{}", r.letters(1), r.digits(7)),
        },
    }
}

struct G {
    r: Rng,
    patients: usize,
    roster: Vec<String>,
}

impl G {
    fn name(&mut self, female: bool) -> Name {
        let first = if female {
            self.r.pick(FEMALE)
        } else {
            self.r.pick(MALE)
        };
        let middle = if self.r.chance(35) {
            Some(if self.r.chance(50) {
                self.r.pick(FEMALE)
            } else {
                self.r.pick(MALE)
            })
        } else {
            None
        };
        Name {
            first,
            middle: middle.filter(|m| *m != first),
            last: self.r.pick(SURNAMES),
        }
    }

    /// A patient born between `y0` and `y1`; every third one goes on the roster.
    fn patient(&mut self, y0: u32, y1: u32) -> Patient {
        let female = self.r.chance(55);
        let name = self.name(female);
        let dob = Date::random(&mut self.r, y0, y1);
        let r = &mut self.r;
        let (city, state, z3) = r.pick(CITIES);
        let street = {
            let num = r.range(2, 19999);
            match r.below(8) {
                0 => format!("{num} County Road {}", r.range(2, 40)),
                1 => format!(
                    "{num} {} {} {}",
                    r.pick(&["N", "S", "E", "W", "NE", "SW"]),
                    r.pick(STREETS),
                    r.pick(SUFFIXES)
                ),
                2 => format!("PO Box {}", r.range(10, 9999)),
                _ => format!("{num} {} {}", r.pick(STREETS), r.pick(SUFFIXES)),
            }
        };
        let unit = if !street.starts_with("PO") && r.chance(30) {
            Some(match r.below(6) {
                0 => format!("Apt {}{}", r.range(1, 9), r.pick(&["A", "B", "C", ""])),
                1 => format!("Apt. {}", r.range(1, 40)),
                2 => format!("Unit {}", r.range(100, 420)),
                3 => format!("#{}", r.range(2, 30)),
                4 => format!("Lot {}", r.range(1, 80)),
                _ => format!("Trlr {}", r.range(1, 30)),
            })
        } else {
            None
        };
        let zip = format!("{z3}{}", r.digits(2));
        let zip4 = r.digits(4);
        let mrn = match r.below(5) {
            0 => r.digits(7),
            1 => format!("00{}", r.digits(6)),
            2 => format!("{}{}", r.pick(&["A", "M", "E"]), r.digits(7)),
            3 => r.digits(8),
            _ => format!("{}-{}", r.pick(&["LKS", "PVD", "HLH", "RVB"]), r.digits(7)),
        };
        let member = match r.below(4) {
            0 => format!("{}{}", r.letters(3), r.digits(9)),
            1 => format!("W{}", r.digits(10)),
            2 => format!(
                "{}{}{}-{}-{}",
                r.range(1, 9),
                r.letters(1),
                r.alnum(2),
                r.alnum(3),
                r.alnum(4)
            ),
            _ => format!("{}{}", r.digits(8), r.letters(1)),
        };
        let acct = match r.below(3) {
            0 => r.digits(8),
            1 => format!("PA-{}", r.digits(8)),
            _ => format!("{}{}", r.digits(4), r.digits(6)),
        };
        let ssn = ssn(r);
        let phone = phone_digits(r);
        let email = {
            let (f, l) = (slug(name.first), slug(name.last));
            let dom = r.pick(&[
                "gmail.com",
                "yahoo.com",
                "outlook.com",
                "icloud.com",
                "aol.com",
                "hotmail.com",
                "comcast.net",
            ]);
            match r.below(5) {
                0 => format!("{f}.{l}@{dom}"),
                1 => format!("{}{l}{}@{dom}", &f[..1], dob.y % 100),
                2 => format!("{f}_{l}{}@{dom}", r.range(1, 99)),
                3 => format!("{l}{f}{}@{dom}", dob.y),
                _ => format!("{f}{}@{dom}", r.range(100, 9999)),
            }
        };
        let mut rels = Vec::new();
        let young = dob.y >= 2006;
        let old = dob.y < 1962;
        while rels.len() < 2 {
            let (rel, fem) = self.r.pick(&[
                ("daughter", true),
                ("son", false),
                ("wife", true),
                ("husband", false),
                ("mother", true),
                ("father", false),
                ("sister", true),
                ("brother", false),
                ("granddaughter", true),
                ("grandson", false),
                ("partner", true),
                ("niece", true),
            ]);
            let fits = match rel {
                "mother" | "father" => !old,
                "wife" | "husband" | "partner" => !young,
                "daughter" | "son" | "granddaughter" | "grandson" | "niece" => !young,
                _ => true,
            };
            if !fits {
                continue;
            }
            let mut n = self.name(fem);
            n.middle = None;
            if n.first == name.first {
                continue;
            }
            if self.r.chance(65) {
                n.last = name.last;
            }
            let phone = phone_digits(&mut self.r);
            rels.push(Rel {
                name: n,
                rel,
                phone,
            });
            if self.r.chance(50) {
                break;
            }
        }
        if self.patients.is_multiple_of(3) {
            self.roster.push(name.full());
        }
        self.patients += 1;
        Patient {
            name,
            female,
            dob,
            phone,
            email,
            street,
            unit,
            city,
            state,
            zip,
            zip4,
            mrn,
            member,
            acct,
            ssn,
            rels,
        }
    }

    fn name_pct(&mut self, female_pct: usize) -> Name {
        let female = self.r.chance(female_pct);
        self.name(female)
    }

    fn staff(&mut self) -> (&'static str, &'static str) {
        self.r.pick(STAFF)
    }

    /// A staff member as clinic text writes them (never labelled).
    fn staff_ref(&mut self) -> String {
        let (f, l) = self.staff();
        match self.r.below(6) {
            0 => format!("Dr. {l}"),
            1 => format!("{f} {l}, MD"),
            2 => format!("{f} {l}, RN"),
            3 => format!("{}. {l}", &f[..1]),
            4 => format!("{f} {l}"),
            _ => format!("{l}, {f}"),
        }
    }

    fn today(&mut self) -> Date {
        Date::random(&mut self.r, 2025, 2026)
    }
}

/// The patient's name in one of the forms clinic text uses; titles stay outside the label.
fn put_name(w: &mut W, r: &mut Rng, n: &Name) {
    match r.below(12) {
        0..=2 => {
            w.l(P, &n.full());
        }
        3 => {
            let s = match n.initial() {
                Some(i) => format!("{} {i} {}", n.first, n.last),
                None => n.full(),
            };
            w.l(P, &s);
        }
        4 | 5 => {
            w.l(P, n.last).t(", ");
            match n.initial() {
                Some(i) => w.l(P, &format!("{} {i}", n.first)),
                None => w.l(P, n.first),
            };
        }
        6 => {
            w.l(P, &n.last.to_uppercase())
                .t(", ")
                .l(P, &n.first.to_uppercase());
        }
        7 => {
            w.l(P, &n.full().to_uppercase());
        }
        8 => {
            w.l(P, &n.full().to_lowercase());
        }
        9 => {
            w.l(P, &format!("{} {}", n.nick(), n.last));
        }
        10 => {
            w.l(
                P,
                &n.middle
                    .map_or(n.full(), |m| format!("{} {m} {}", n.first, n.last)),
            );
        }
        _ => {
            w.l(
                P,
                &format!(
                    "{}. {}",
                    &n.first[..n.first.chars().next().unwrap().len_utf8()],
                    n.last
                ),
            );
        }
    }
}

/// "Mr. Last" / "Ms. Last" / "Last" / first name / nickname, for second mentions.
fn put_short(w: &mut W, r: &mut Rng, p: &Patient) {
    match r.below(5) {
        0 => {
            w.t(if p.female { "Ms. " } else { "Mr. " })
                .l(P, p.name.last);
        }
        1 => {
            w.l(P, p.name.first);
        }
        2 => {
            w.l(P, p.name.nick());
        }
        3 => {
            w.t("pt ").l(P, p.name.last);
        }
        _ => {
            w.t(if p.female { "Mrs. " } else { "Mr. " })
                .l(P, p.name.last);
        }
    }
}

fn put_age(w: &mut W, r: &mut Rng, age: u32) {
    let n = age.to_string();
    let lab = age >= 90;
    let (pre, post) = r.pick(&[
        ("", " y/o"),
        ("", "yo"),
        ("", "-year-old"),
        ("age ", ""),
        ("aged ", ""),
        ("", " years old"),
        ("", " y"),
        ("", " yrs"),
    ]);
    w.t(pre);
    if lab {
        w.l(Age, &n);
    } else {
        w.t(&n);
    }
    w.t(post);
}

fn put_addr_line(w: &mut W, r: &mut Rng, p: &Patient) {
    let street = match &p.unit {
        Some(u) => format!("{}{}{u}", p.street, r.pick(&[" ", ", "])),
        None => p.street.clone(),
    };
    w.l(Address, &street).t(", ").l(Address, p.city).t(", ");
    w.t(p.state).t(" ");
    if r.chance(30) {
        w.l(Zip, &format!("{}-{}", p.zip, p.zip4));
    } else {
        w.l(Zip, &p.zip);
    }
}

fn put_mrn(w: &mut W, r: &mut Rng, p: &Patient) {
    w.t(r.pick(&[
        "MRN: ",
        "MRN ",
        "MR# ",
        "Med Rec #",
        "Chart No. ",
        "Patient ID: ",
        "EHR ID ",
        "mrn ",
    ]))
    .l(Mrn, &p.mrn);
}

fn put_dob(w: &mut W, r: &mut Rng, p: &Patient) {
    w.t(r.pick(&[
        "DOB: ",
        "DOB ",
        "D.O.B. ",
        "Date of birth: ",
        "born ",
        "dob ",
    ]));
    let s = p.dob.any(r);
    w.l(D, &s);
}

fn any_phone(r: &mut Rng) -> String {
    let d = phone_digits(r);
    fmt_phone(r, &d)
}

/// Somebody's number (a clinic's, a payer's): labelled all the same.
fn put_new_phone(w: &mut W, r: &mut Rng) {
    let d = phone_digits(r);
    put_phone(w, r, &d);
}

fn put_phone(w: &mut W, r: &mut Rng, digits: &str) {
    let s = fmt_phone(r, digits);
    w.l(Phone, &s);
    if r.chance(8) {
        w.t(&format!(" ext. {}", r.range(2, 499)));
    }
}

// ---------------------------------------------------------------------------------------------
// Families.

impl G {
    fn x12(&mut self) -> W {
        let p = self.patient(1930, 2008);
        let today = self.today();
        let dos = today.minus(self.r.range(10, 40));
        let mut w = W::default();
        let r = &mut self.r;
        let sep = if r.chance(60) { "~\n" } else { "~" };
        let ctrl = r.digits(9);
        let payer = r.pick(PAYERS).to_uppercase();
        let clinic = r.pick(CLINICS).to_uppercase();
        let is835 = r.chance(40);
        w.t("ISA*00*          *00*          *ZZ*SUBMITTER01    *ZZ*PAYERID77      *")
            .l(D, &today.compact()[2..])
            .t(&format!(
                "*{:02}{:02}*^*00501*{ctrl}*0*P*:",
                r.range(0, 23),
                r.range(0, 59)
            ))
            .t(sep);
        let up = |s: &str| fold(s).to_uppercase();
        let (fst, lst) = (up(p.name.first), up(p.name.last));
        if is835 {
            w.t("GS*HP*PAYERID77*SUBMITTER01*")
                .l(D, &today.compact())
                .t(&format!("*1253*{}*X*005010X221A1", r.range(1, 9999)))
                .t(sep);
            w.t("ST*835*0001").t(sep);
            w.t(&format!(
                "BPR*I*{}.{:02}*C*ACH*CCP*01*",
                r.range(80, 2400),
                r.range(0, 99)
            ))
            .t(&format!(
                "{}*DA*{}*1{}**01*{}*DA*{}*",
                r.digits(9),
                r.digits(10),
                r.digits(9),
                r.digits(9),
                r.digits(8)
            ))
            .l(D, &today.compact())
            .t(sep);
            w.t(&format!("TRN*1*{}*1{}", r.digits(10), r.digits(9)))
                .t(sep);
            w.t(&format!("N1*PR*{payer}")).t(sep);
            w.t(&format!("N1*PE*{clinic}*XX*{}", npi(r))).t(sep);
            let billed = r.range(120, 2400);
            w.t("CLP*").l(Account, &p.acct).t(&format!(
                "*1*{billed}*{}.{:02}*{}*12*",
                billed * 3 / 5,
                r.range(0, 99),
                r.range(0, 80)
            ));
            w.l(Account, &r.digits(13)).t("*11*1").t(sep);
            w.t("NM1*QC*1*")
                .l(P, &lst)
                .t("*")
                .l(P, &fst)
                .t("****MI*")
                .l(HealthPlan, &p.member)
                .t(sep);
            if r.chance(50) {
                w.t("NM1*82*2*")
                    .t(&clinic)
                    .t(&format!("*****XX*{}", npi(r)))
                    .t(sep);
            }
            w.t("DTM*232*").l(D, &dos.compact()).t(sep);
            w.t("DTM*233*")
                .l(D, &dos.plus(r.range(0, 3)).compact())
                .t(sep);
            for _ in 0..r.range(1, 3) {
                w.t(&format!(
                    "SVC*HC:{}*{}*{}**1",
                    r.pick(CPT),
                    r.range(40, 900),
                    r.range(20, 500)
                ))
                .t(sep);
                w.t("DTM*472*").l(D, &dos.compact()).t(sep);
                w.t(&format!(
                    "CAS*{}*{}*{}.{:02}",
                    r.pick(&["PR", "CO"]),
                    r.pick(&[1, 2, 3, 45]),
                    r.range(5, 200),
                    r.range(0, 99)
                ))
                .t(sep);
                w.t(&format!("REF*6R*{}", r.digits(6))).t(sep);
            }
        } else {
            w.t("GS*HC*SUBMITTER01*PAYERID77*")
                .l(D, &today.compact())
                .t(&format!(
                    "*{:02}{:02}*{}*X*005010X222A1",
                    r.range(0, 23),
                    r.range(0, 59),
                    r.range(1, 9999)
                ))
                .t(sep);
            w.t("ST*837*0001*005010X222A1").t(sep);
            w.t(&format!("BHT*0019*00*{}*", r.digits(4)))
                .l(D, &today.compact())
                .t("*1253*CH")
                .t(sep);
            let (sf, sl) = STAFF[r.below(STAFF.len())];
            w.t(&format!("NM1*41*2*{clinic}*****46*SUBMITTER01")).t(sep);
            w.t(&format!("PER*IC*{} {}*TE*", up(sf), up(sl)));
            w.l(Phone, &phone_digits(r))
                .t("*EX*")
                .t(&r.range(10, 400).to_string())
                .t(sep);
            w.t(&format!("NM1*85*2*{clinic}*****XX*{}", npi(r))).t(sep);
            w.t(&format!("REF*EI*{}", r.digits(9))).t(sep);
            w.t("HL*2*1*22*")
                .t(if p.dob.y > 2005 { "1" } else { "0" })
                .t(sep);
            w.t(&format!("SBR*P*18*{}******CI", r.digits(6))).t(sep);
            // A child is the dependent of a parent who is the subscriber.
            let child = p.dob.y > 2005;
            let sub = if child { &p.rels[0].name } else { &p.name };
            w.t("NM1*IL*1*")
                .l(P, &up(sub.last))
                .t("*")
                .l(P, &up(sub.first))
                .t("*");
            if let (false, Some(m)) = (child, p.name.middle) {
                w.l(P, &up(&m[..1]));
            }
            w.t("***MI*").l(HealthPlan, &p.member).t(sep);
            let street = match &p.unit {
                Some(u) => format!("{}*{}", up(&p.street), up(u)),
                None => up(&p.street),
            };
            // N3 with a unit is two fields: label them apart.
            match street.split_once('*') {
                Some((a, b)) => w.t("N3*").l(Address, a).t("*").l(Address, b),
                None => w.t("N3*").l(Address, &street),
            };
            w.t(sep);
            w.t("N4*").l(Address, &up(p.city)).t("*").t(p.state).t("*");
            if r.chance(50) {
                w.l(Zip, &format!("{}{}", p.zip, p.zip4));
            } else {
                w.l(Zip, &p.zip);
            }
            w.t(sep);
            if !child {
                w.t("DMG*D8*")
                    .l(D, &p.dob.compact())
                    .t(if p.female { "*F" } else { "*M" })
                    .t(sep);
                if r.chance(40) {
                    w.t("REF*SY*").l(Ssn, &p.ssn.replace('-', "")).t(sep);
                }
            }
            w.t(&format!("NM1*PR*2*{payer}*****PI*{}", r.digits(5)))
                .t(sep);
            if child {
                w.t("HL*3*2*23*0").t(sep);
                w.t("PAT*19").t(sep);
                w.t("NM1*QC*1*").l(P, &lst).t("*").l(P, &fst).t(sep);
                w.t("N3*").l(Address, &up(&p.street)).t(sep);
                w.t("N4*")
                    .l(Address, &up(p.city))
                    .t("*")
                    .t(p.state)
                    .t("*")
                    .l(Zip, &p.zip)
                    .t(sep);
                w.t("DMG*D8*")
                    .l(D, &p.dob.compact())
                    .t(if p.female { "*F" } else { "*M" })
                    .t(sep);
            }
            let billed = r.range(120, 2400);
            w.t("CLM*")
                .l(Account, &p.acct)
                .t(&format!("*{billed}***11:B:1*Y*A*Y*Y"))
                .t(sep);
            w.t(&format!(
                "HI*ABK:{}*ABF:{}",
                r.pick(ICD).replace('.', ""),
                r.pick(ICD).replace('.', "")
            ))
            .t(sep);
            for i in 1..=r.range(1, 3) {
                w.t(&format!("LX*{i}")).t(sep);
                w.t(&format!(
                    "SV1*HC:{}*{}*UN*1***1",
                    r.pick(CPT),
                    r.range(40, 900)
                ))
                .t(sep);
                w.t("DTP*472*D8*").l(D, &dos.compact()).t(sep);
                if r.chance(40) {
                    w.t(&format!("LIN**N4*{}", ndc(r).replace('-', ""))).t(sep);
                }
            }
        }
        w.t(&format!("SE*{}*0001", r.range(18, 40))).t(sep);
        w.t(&format!("GE*1*{}", r.range(1, 9999))).t(sep);
        w.t(&format!("IEA*1*{ctrl}~"));
        w
    }

    fn ccda(&mut self) -> W {
        let p = self.patient(1926, 2010);
        let today = self.today();
        let (sf, sl) = self.staff();
        let mut w = W::default();
        let r = &mut self.r;
        let root = format!(
            "2.16.840.1.113883.19.5.{}.{}",
            r.range(1000, 99999),
            r.range(1, 9)
        );
        w.t("<ClinicalDocument xmlns=\"urn:hl7-org:v3\">\n");
        w.t("  <templateId root=\"2.16.840.1.113883.10.20.22.1.1\" extension=\"")
            .t("2015-08-01")
            .t("\"/>\n");
        w.t("  <effectiveTime value=\"")
            .l(D, &today.compact())
            .t(&format!(
                "{:02}{:02}00-0500\"/>\n",
                r.range(7, 18),
                r.range(0, 59)
            ));
        w.t("  <recordTarget>\n    <patientRole>\n");
        w.t("      <id extension=\"")
            .l(Mrn, &p.mrn)
            .t(&format!("\" root=\"{root}\"/>\n"));
        if r.chance(40) {
            w.t("      <id extension=\"")
                .l(Ssn, &p.ssn)
                .t("\" root=\"2.16.840.1.113883.4.1\"/>\n");
        }
        w.t("      <addr use=\"HP\">\n        <streetAddressLine>")
            .l(Address, &p.street)
            .t("</streetAddressLine>\n");
        if let Some(u) = &p.unit {
            w.t("        <streetAddressLine>")
                .l(Address, u)
                .t("</streetAddressLine>\n");
        }
        w.t("        <city>").l(Address, p.city).t("</city>\n");
        w.t(&format!("        <state>{}</state>\n", p.state));
        w.t("        <postalCode>")
            .l(Zip, &p.zip)
            .t("</postalCode>\n");
        w.t("        <country>US</country>\n      </addr>\n");
        let ph = &p.phone;
        let tel = match r.below(3) {
            0 => format!("+1-{}-{}-{}", &ph[..3], &ph[3..6], &ph[6..]),
            1 => format!("({}){}-{}", &ph[..3], &ph[3..6], &ph[6..]),
            _ => format!("+1{ph}"),
        };
        w.t(&format!(
            "      <telecom use=\"{}\" value=\"tel:",
            r.pick(&["HP", "MC", "WP"])
        ))
        .l(Phone, &tel)
        .t("\"/>\n");
        if r.chance(60) {
            w.t("      <telecom value=\"mailto:")
                .l(Email, &p.email)
                .t("\"/>\n");
        }
        w.t("      <patient>\n        <name use=\"L\">\n          <given>")
            .l(P, p.name.first)
            .t("</given>\n");
        if let Some(m) = p.name.middle {
            w.t("          <given>").l(P, m).t("</given>\n");
        }
        w.t("          <family>")
            .l(P, p.name.last)
            .t("</family>\n        </name>\n");
        w.t(&format!(
            "        <administrativeGenderCode code=\"{}\" codeSystem=\"2.16.840.1.113883.5.1\"/>\n",
            if p.female { "F" } else { "M" }
        ));
        w.t("        <birthTime value=\"")
            .l(D, &p.dob.compact())
            .t("\"/>\n");
        if r.chance(60) {
            let rel = &p.rels[0];
            w.t("        <guardian>\n");
            let code = match rel.rel {
                "daughter" => "DAU",
                "son" => "SON",
                "wife" | "husband" | "partner" => "SPS",
                "mother" => "MTH",
                "father" => "FTH",
                _ => "FAMMEMB",
            };
            w.t(&format!(
                "          <code code=\"{code}\" displayName=\"{}\"/>\n",
                rel.rel
            ));
            w.t("          <telecom value=\"tel:")
                .l(Phone, &fmt_phone(r, &rel.phone))
                .t("\"/>\n");
            w.t("          <guardianPerson><name><given>")
                .l(P, rel.name.first)
                .t("</given><family>")
                .l(P, rel.name.last)
                .t("</family></name></guardianPerson>\n");
            w.t("        </guardian>\n");
        }
        w.t("      </patient>\n    </patientRole>\n  </recordTarget>\n");
        w.t("  <author>\n    <time value=\"")
            .l(D, &today.compact())
            .t("\"/>\n");
        w.t(&format!(
            "    <assignedAuthor><id extension=\"{}\" root=\"2.16.840.1.113883.4.6\"/>\n",
            npi(r)
        ));
        w.t(&format!(
            "      <assignedPerson><name><prefix>Dr.</prefix><given>{sf}</given><family>{sl}</family></name></assignedPerson>\n"
        ));
        w.t(&format!(
            "      <representedOrganization><name>{}</name></representedOrganization>\n    </assignedAuthor>\n  </author>\n",
            r.pick(CLINICS)
        ));
        w.t("  <component><structuredBody>\n");
        for _ in 0..r.range(1, 3) {
            let d = today.minus(r.range(1, 60));
            w.t(&format!(
                "    <observation classCode=\"OBS\" moodCode=\"EVN\"><code code=\"{}\" codeSystem=\"2.16.840.1.113883.6.1\"/>",
                r.pick(LOINC)
            ));
            w.t("<effectiveTime value=\"")
                .l(D, &d.compact())
                .t(&format!(
                    "\"/><value xsi:type=\"PQ\" value=\"{}.{}\" unit=\"{}\"/></observation>\n",
                    r.range(1, 140),
                    r.range(0, 9),
                    r.pick(&["%", "mg/dL", "g/dL", "mmol/L"])
                ));
        }
        w.t(&format!(
            "    <act><code code=\"{}\" codeSystem=\"2.16.840.1.113883.6.90\"/><text>problem</text></act>\n",
            r.pick(ICD)
        ));
        if r.chance(40) {
            w.t(&format!(
                "    <substanceAdministration><consumable><manufacturedProduct><manufacturedMaterial><code code=\"{}\"/><lotNumberText>{}</lotNumberText></manufacturedMaterial></manufacturedProduct></consumable></substanceAdministration>\n",
                ndc(r),
                lot(r)
            ));
        }
        w.t("  </structuredBody></component>\n</ClinicalDocument>\n");
        w
    }

    fn fhir(&mut self) -> W {
        let p = self.patient(1926, 2015);
        let today = self.today();
        let (sf, sl) = self.staff();
        let mut w = W::default();
        let r = &mut self.r;
        let pretty = r.chance(60);
        let (nl, i1, i2, i3) = if pretty {
            ("\n", "  ", "    ", "      ")
        } else {
            ("", "", "", "")
        };
        let sp = if pretty { " " } else { "" };
        let host = r.pick(&[
            "fhir.lakeshoreonc.org/r4",
            "ehr.prairieviewdialysis.com/fhir",
            "api.northfieldwh.org/fhir/R4",
        ]);
        w.t(&format!(
            "{{{nl}{i1}\"resourceType\":{sp}\"Bundle\",{nl}{i1}\"type\":{sp}\"collection\",{nl}"
        ));
        w.t(&format!("{i1}\"timestamp\":{sp}\""))
            .l(D, &today.iso())
            .t(&format!(
                "T{:02}:{:02}:00-05:00\",{nl}",
                r.range(0, 23),
                r.range(0, 59)
            ));
        w.t(&format!("{i1}\"entry\":{sp}[{nl}{i2}{{{nl}"));
        w.t(&format!("{i3}\"fullUrl\":{sp}\""))
            .l(Url, &format!("https://{host}/Patient/{}", p.mrn))
            .t(&format!("\",{nl}"));
        w.t(&format!(
            "{i3}\"resource\":{sp}{{\"resourceType\":{sp}\"Patient\",{sp}\"id\":{sp}\""
        ))
        .l(Mrn, &p.mrn)
        .t(&format!("\",{nl}"));
        w.t(&format!("{i3}\"identifier\":{sp}[{{\"system\":{sp}\"urn:oid:2.16.840.1.113883.3.{}\",{sp}\"value\":{sp}\"", r.range(100, 9999))).l(Mrn, &p.mrn).t("\"}");
        if r.chance(40) {
            w.t(&format!(
                ",{sp}{{\"system\":{sp}\"http://hl7.org/fhir/sid/us-ssn\",{sp}\"value\":{sp}\""
            ))
            .l(Ssn, &p.ssn)
            .t("\"}");
        }
        if r.chance(40) {
            w.t(&format!(
                ",{sp}{{\"type\":{sp}{{\"text\":{sp}\"Driver's license\"}},{sp}\"value\":{sp}\""
            ))
            .l(License, &licence(r, p.state))
            .t("\"}");
        }
        w.t(&format!("],{nl}"));
        w.t(&format!(
            "{i3}\"name\":{sp}[{{\"use\":{sp}\"official\",{sp}\"family\":{sp}\""
        ))
        .l(P, p.name.last)
        .t(&format!("\",{sp}\"given\":{sp}[\""))
        .l(P, p.name.first)
        .t("\"");
        if let Some(m) = p.name.middle {
            w.t(&format!(",{sp}\"")).l(P, m).t("\"");
        }
        w.t("]}");
        if p.name.nick() != p.name.first {
            w.t(&format!(
                ",{sp}{{\"use\":{sp}\"nickname\",{sp}\"given\":{sp}[\""
            ))
            .l(P, p.name.nick())
            .t("\"]}");
        }
        w.t(&format!("],{nl}"));
        w.t(&format!(
            "{i3}\"telecom\":{sp}[{{\"system\":{sp}\"phone\",{sp}\"value\":{sp}\""
        ))
        .l(Phone, &fmt_phone(r, &p.phone))
        .t(&format!(
            "\",{sp}\"use\":{sp}\"{}\"}}",
            r.pick(&["mobile", "home"])
        ));
        if r.chance(60) {
            w.t(&format!(
                ",{sp}{{\"system\":{sp}\"email\",{sp}\"value\":{sp}\""
            ))
            .l(Email, &p.email)
            .t("\"}");
        }
        w.t(&format!("],{nl}"));
        w.t(&format!(
            "{i3}\"gender\":{sp}\"{}\",{sp}\"birthDate\":{sp}\"",
            if p.female { "female" } else { "male" }
        ))
        .l(D, &p.dob.iso())
        .t(&format!("\",{nl}"));
        w.t(&format!(
            "{i3}\"address\":{sp}[{{\"use\":{sp}\"home\",{sp}\"line\":{sp}[\""
        ))
        .l(Address, &p.street)
        .t("\"");
        if let Some(u) = &p.unit {
            w.t(&format!(",{sp}\"")).l(Address, u).t("\"");
        }
        w.t(&format!("],{sp}\"city\":{sp}\""))
            .l(Address, p.city)
            .t(&format!(
                "\",{sp}\"state\":{sp}\"{}\",{sp}\"postalCode\":{sp}\"",
                p.state
            ))
            .l(Zip, &p.zip)
            .t(&format!("\"}}],{nl}"));
        let rel = &p.rels[0];
        w.t(&format!("{i3}\"contact\":{sp}[{{\"relationship\":{sp}[{{\"text\":{sp}\"{}\"}}],{sp}\"name\":{sp}{{\"text\":{sp}\"", rel.rel)).l(P, &rel.name.full()).t(&format!("\"}},{sp}\"telecom\":{sp}[{{\"system\":{sp}\"phone\",{sp}\"value\":{sp}\"")).l(Phone, &fmt_phone(r, &rel.phone)).t(&format!("\"}}]}}]}}{nl}{i2}}},{nl}"));
        w.t(&format!("{i2}{{\"resource\":{sp}{{\"resourceType\":{sp}\"Coverage\",{sp}\"status\":{sp}\"active\",{sp}\"subscriberId\":{sp}\"")).l(HealthPlan, &p.member).t(&format!("\",{sp}\"payor\":{sp}[{{\"display\":{sp}\"{}\"}}],{sp}\"period\":{sp}{{\"start\":{sp}\"", r.pick(PAYERS))).l(D, &format!("{}-01-01", today.y)).t(&format!("\"}}}}}},{nl}"));
        let d = today.minus(r.range(0, 20));
        w.t(&format!("{i2}{{\"resource\":{sp}{{\"resourceType\":{sp}\"Observation\",{sp}\"status\":{sp}\"final\",{sp}\"code\":{sp}{{\"coding\":{sp}[{{\"system\":{sp}\"http://loinc.org\",{sp}\"code\":{sp}\"{}\"}}]}},{sp}\"effectiveDateTime\":{sp}\"", r.pick(LOINC))).l(D, &d.iso()).t(&format!("T{:02}:{:02}:00Z\",{sp}\"valueQuantity\":{sp}{{\"value\":{sp}{}.{},{sp}\"unit\":{sp}\"mg/dL\"}}}}}},{nl}", r.range(0, 23), r.range(0, 59), r.range(1, 300), r.range(0, 9)));
        w.t(&format!("{i2}{{\"resource\":{sp}{{\"resourceType\":{sp}\"MedicationRequest\",{sp}\"medicationCodeableConcept\":{sp}{{\"coding\":{sp}[{{\"system\":{sp}\"http://hl7.org/fhir/sid/ndc\",{sp}\"code\":{sp}\"{}\"}}],{sp}\"text\":{sp}\"{}\"}},{sp}\"authoredOn\":{sp}\"", ndc(r), r.pick(DRUGS))).l(D, &d.iso()).t(&format!("\",{sp}\"requester\":{sp}{{\"display\":{sp}\"Dr. {sf} {sl}\",{sp}\"identifier\":{sp}{{\"value\":{sp}\"{}\"}}}},{sp}\"dosageInstruction\":{sp}[{{\"text\":{sp}\"1 tab PO BID x 30 days\"}}]}}}}{nl}", npi(r)));
        w.t(&format!("{i1}]{nl}}}\n"));
        w
    }

    fn prenatal(&mut self) -> W {
        let mut p = self.patient(1986, 2005);
        p.female = true;
        p.name.first = self.r.pick(FEMALE);
        let today = self.today();
        let (sf, sl) = self.staff();
        let mut w = W::default();
        let r = &mut self.r;
        let ga_w = r.range(8, 39);
        let ga_d = r.range(0, 6);
        let lmp = today.minus(ga_w * 7 + ga_d);
        let edd = lmp.plus(280);
        let clinic = "Northfield Women's Health";
        w.t(&format!(
            "{} — {}\n",
            r.pick(&[
                "PRENATAL VISIT",
                "OB return visit",
                "Prenatal Progress Note"
            ]),
            clinic
        ));
        w.t("Patient: ");
        put_name(&mut w, r, &p.name);
        w.t("   ");
        put_dob(&mut w, r, &p);
        w.t("   ");
        put_mrn(&mut w, r, &p);
        w.t("\nVisit date: ")
            .l(D, &today.any(r))
            .t(&format!("   Provider: {sf} {sl}, CNM\n"));
        let g = r.range(1, 5);
        w.t(&format!("G{g}P{} at {ga_w}w{ga_d}d by LMP ", g - 1))
            .l(D, &lmp.any(r))
            .t("; EDD ")
            .l(D, &edd.any(r));
        if r.chance(60) {
            let us = lmp.plus(r.range(56, 90));
            w.t(&format!(" (confirmed by {}w US on ", r.range(8, 12)))
                .l(D, &us.any(r))
                .t(")");
        }
        w.t(".\n");
        w.t(&format!(
            "BP {}/{}, FHR {}, fundal height {} cm, wt {}.{} kg, urine prot neg. Dx {}.\n",
            r.range(100, 138),
            r.range(60, 88),
            r.range(120, 165),
            ga_w.max(12) - r.range(0, 2),
            r.range(55, 110),
            r.range(0, 9),
            r.pick(&["Z34.02", "Z3A.28", "O24.419", "Z34.83"])
        ));
        let fob = &p.rels[0];
        w.t(r.pick(&["FOB: ", "Partner: ", "Support person: "]))
            .l(P, &fob.name.full())
            .t(", phone ");
        put_phone(&mut w, r, &fob.phone);
        w.t(&format!(
            ", {}.\n",
            r.pick(&["involved", "present today", "will attend delivery"])
        ));
        if g > 1 {
            let kid = Date::random(r, 2016, 2024);
            let girl = r.chance(50);
            let kn = r.pick(if girl { FEMALE } else { MALE });
            w.t(if girl {
                "Prior: daughter "
            } else {
                "Prior: son "
            })
            .l(P, kn)
            .t(" (DOB ")
            .l(D, &kid.any(r))
            .t(&format!(
                "), {}.\n",
                r.pick(&["NSVD", "C/S for breech", "VBAC"])
            ));
        }
        if r.chance(50) {
            w.t(&format!(
                "Rh neg — RhoGAM 300 mcg IM at 28 wk, lot {}. ",
                lot(r)
            ));
        }
        w.t(&format!(
            "GTT {}; Tdap {}.\n",
            r.pick(&[
                "scheduled next Tuesday",
                "due at next visit",
                "passed (118 mg/dL)"
            ]),
            r.pick(&["given today", "at 27-36 wk", "declined"])
        ));
        if ga_w >= 36 || r.chance(30) {
            let born = edd.minus(r.range(0, 14));
            let last = if r.chance(70) {
                p.name.last
            } else {
                fob.name.last
            };
            w.t("Delivery: Baby ")
                .t(r.pick(&["Girl ", "Boy "]))
                .l(P, last)
                .t(" born ")
                .l(D, &born.any(r));
            w.t(&format!(
                " at {:02}:{:02}, {}.{:02} kg, Apgars 8/9. Newborn ",
                r.range(0, 23),
                r.range(0, 59),
                r.range(2, 4),
                r.range(0, 99)
            ));
            w.t("MRN ")
                .l(Mrn, &r.digits(7))
                .t(". Mother in ")
                .t(r.pick(&["Rm ", "room ", "L&D "]))
                .l(Room, &r.range(201, 460).to_string())
                .t(".\n");
        }
        w.t(&format!(
            "Plan: RTC {}; kick counts; call {} L&D triage ",
            r.pick(&["2 weeks", "1 week", "4 weeks"]),
            clinic
        ));
        put_new_phone(&mut w, r);
        w.t(" for bleeding, LOF, decreased FM.\nPt cell ");
        put_phone(&mut w, r, &p.phone);
        w.t(".\n");
        w
    }

    fn infusion(&mut self) -> W {
        let p = self.patient(1928, 1995);
        let today = self.today();
        let mut w = W::default();
        let (nf, nl) = self.staff();
        let r = &mut self.r;
        w.t(&format!(
            "INFUSION SCHEDULE — Lakeshore Oncology Associates, Pod {}\n",
            r.pick(&["A", "B", "C"])
        ));
        w.t("Pt: ");
        put_name(&mut w, r, &p.name);
        w.t("   ");
        put_mrn(&mut w, r, &p);
        w.t("   ");
        put_dob(&mut w, r, &p);
        w.t(" (");
        put_age(&mut w, r, p.dob.age_on(today));
        w.t(")\n");
        w.t(&format!(
            "Ht {} cm  Wt {}.{} kg  BSA 1.{} m2   Regimen: {}\n",
            r.range(150, 190),
            r.range(45, 120),
            r.range(0, 9),
            r.range(50, 99),
            r.pick(&[
                "AC-T (doxorubicin 60 mg/m2 + cyclophosphamide 600 mg/m2 q14d x4, then paclitaxel 80 mg/m2 weekly x12)",
                "FOLFOX q14d (oxaliplatin 85 mg/m2, leucovorin 400 mg/m2, 5-FU 2400 mg/m2 over 46 h)",
                "carboplatin AUC 5 + pemetrexed 500 mg/m2 q21d",
                "pembrolizumab 200 mg q21d",
            ])
        ));
        w.t("Cycle | Date | Chair | Pre-meds | Notes\n");
        let mut d = today;
        for c in 1..=r.range(3, 6) {
            w.t(&format!("C{c}D1 | "));
            if r.chance(30) {
                w.t(&DAYS[d.weekday()][..3]).t(" ");
            }
            w.l(D, &d.any(r))
                .t(" | ")
                .l(Room, &r.range(1, 24).to_string());
            w.t(&format!(
                " | {} | {}\n",
                r.pick(&[
                    "ondansetron 16 mg IV + dexamethasone 12 mg",
                    "famotidine 20 mg, diphenhydramine 25 mg",
                    "none"
                ]),
                r.pick(&[
                    "",
                    "ANC 1.9 ok to treat",
                    "hold if plt < 75",
                    "dose-reduce 20%",
                    "labs 1 h prior"
                ])
            ));
            d = d.plus(r.pick(&[14, 21, 7]));
        }
        if r.chance(70) {
            w.t(&format!(
                "Port: {} SN ",
                r.pick(&["PowerPort", "BardPort", "Smart Port"])
            ))
            .l(Device, &device_serial(r))
            .t(" placed ")
            .l(D, &today.minus(r.range(7, 40)).any(r))
            .t(".\n");
        }
        w.t(&format!(
            "Labs: CBC w/diff (LOINC {}), CMP before each cycle. Codes: {} / {}, CPT {}. NDC {} lot {}.\n",
            r.pick(LOINC),
            r.pick(HCPCS),
            r.pick(HCPCS),
            r.pick(&["96413/96415", "96413/96417", "96409"]),
            ndc(r),
            lot(r)
        ));
        let rel = &p.rels[0];
        w.t(&format!("Contact: {} ", rel.rel))
            .l(P, &rel.name.full())
            .t(" ");
        put_phone(&mut w, r, &rel.phone);
        w.t(" / pt cell ");
        put_phone(&mut w, r, &p.phone);
        w.t(&format!(
            ". Charge RN {nf} {nl}. Next scan {} {}.\n",
            r.pick(&MONTHS[..]),
            today.y + 1
        ));
        w
    }

    fn dialysis(&mut self) -> W {
        let p = self.patient(1926, 1990);
        let today = self.today();
        let mut w = W::default();
        let (nf, nl) = self.staff();
        let r = &mut self.r;
        w.t("PRAIRIE VIEW DIALYSIS — RUN SHEET   Date: ")
            .l(D, &today.any(r))
            .t(&format!(
                "   Shift {} ({}:00)\n",
                r.range(1, 3),
                r.pick(&["06", "11", "16"])
            ));
        w.t("Patient: ");
        put_name(&mut w, r, &p.name);
        w.t(r.pick(&["     Chair ", "   chair #", "   Station "]))
            .l(Room, &r.range(1, 28).to_string())
            .t("     ");
        put_mrn(&mut w, r, &p);
        w.t("\n");
        w.t("Age: ");
        let age = p.dob.age_on(today);
        if age >= 90 {
            w.l(Age, &age.to_string());
        } else {
            w.t(&age.to_string());
        }
        let dry = r.range(45, 110);
        w.t(&format!(
            "   Dry wt {dry}.{} kg  Pre wt {}.{} kg  Post wt {}.{} kg\n",
            r.range(0, 9),
            dry + r.range(1, 4),
            r.range(0, 9),
            dry,
            r.range(0, 9)
        ));
        w.t(&format!(
            "Access: {} , bruit/thrill +. Dialyzer {} lot {}, bath 2K/2.5Ca, Qb {}, Qd {}, UF goal {}.{} L\n",
            r.pick(&["L AVF", "R AVG", "R IJ TDC"]),
            r.pick(&["Optiflux F180NR", "Revaclear 400", "FX800"]),
            lot(r),
            r.pick(&[350, 400, 450]),
            r.pick(&[500, 600, 800]),
            r.range(1, 4),
            r.range(0, 9)
        ));
        w.t(&format!(
            "Pre BP {}/{} HR {}; post BP {}/{} HR {}. Temp 36.{} C.\n",
            r.range(120, 180),
            r.range(60, 95),
            r.range(60, 100),
            r.range(100, 150),
            r.range(55, 85),
            r.range(60, 100),
            r.range(1, 9)
        ));
        w.t(&format!(
            "Meds: heparin {} units bolus; {} {} units IV (NDC {}); {}.\n",
            r.pick(&[1000, 1500, 2000]),
            r.pick(&["Retacrit", "Mircera", "epoetin alfa"]),
            r.pick(&[2000, 4000, 6000]),
            ndc(r),
            r.pick(&[
                "sevelamer 800 mg with meals",
                "calcitriol 0.5 mcg",
                "iron sucrose 100 mg"
            ])
        ));
        let rel = &p.rels[0];
        w.t(&format!(
            "Transport: {} called {} ",
            r.pick(&["Medicaid cab", "family", "county van"]),
            rel.rel
        ))
        .l(P, &rel.name.full())
        .t(" at ");
        put_phone(&mut w, r, &rel.phone);
        w.t(".");
        if r.chance(40) {
            w.t(" Pt lives at ");
            put_addr_line(&mut w, r, &p);
            w.t(".");
        }
        if r.chance(35) {
            w.t(" Home PD cycler serial ")
                .l(Device, &device_serial(r))
                .t(" returned.");
        }
        w.t(&format!(
            "\nNext tx {}. RN: {nf} {nl}. Missed tx on ",
            r.pick(&["Thursday", "Wednesday", "Saturday", "tomorrow"])
        ));
        w.l(D, &today.minus(r.range(2, 9)).short(r))
            .t(" (no ride).\n");
        w
    }

    fn hospice(&mut self) -> W {
        let p = self.patient(1926, 1952);
        let today = self.today();
        let chaplain = self.staff_ref();
        let mut w = W::default();
        let r = &mut self.r;
        w.t("HARBORLIGHT HOSPICE — ")
            .t(r.pick(&["RN VISIT NOTE", "IDG update", "Aide visit"]))
            .t("   ")
            .l(D, &today.any(r))
            .t("\n");
        w.t("Patient: ");
        put_name(&mut w, r, &p.name);
        w.t(", ");
        put_age(&mut w, r, p.dob.age_on(today));
        w.t(if p.female { " F, " } else { " M, " });
        put_dob(&mut w, r, &p);
        w.t(&format!(
            ". Dx: {} ({}).\n",
            r.pick(&[
                "end-stage CHF",
                "metastatic NSCLC",
                "advanced dementia",
                "ESRD off dialysis"
            ]),
            r.pick(&["I50.9", "C34.90", "G30.9", "N18.6"])
        ));
        w.t("Location: ");
        if r.chance(70) {
            w.t("home, ");
            put_addr_line(&mut w, r, &p);
        } else {
            w.t("Harborlight inpatient unit, ")
                .t(r.pick(&["room ", "Rm ", "bed "]))
                .l(
                    Room,
                    &format!("{}{}", r.range(1, 30), r.pick(&["", "A", "B"])),
                );
        }
        let rel = &p.rels[0];
        w.t(&format!(". Lives with {} ", rel.rel))
            .l(P, rel.name.first);
        // Only a spouse or sibling is of an age to be 90 or more too.
        let peer = matches!(
            rel.rel,
            "wife" | "husband" | "partner" | "sister" | "brother"
        );
        if peer && r.chance(60) {
            w.t(" (");
            let a = r.range(78, 97);
            put_age(&mut w, r, a);
            w.t(")");
        }
        w.t(".\n");
        w.t(&format!(
            "PPS {}%, FAST {}. {} prn for dyspnea; bowel regimen. Comfort kit in fridge.\n",
            r.pick(&[20, 30, 40]),
            r.pick(&["6d", "7a", "7c", "n/a"]),
            r.pick(&[
                "morphine 5 mg SL q2h",
                "lorazepam 0.5 mg SL q4h",
                "oxycodone 2.5 mg q4h"
            ])
        ));
        if r.chance(60) {
            w.t("DME: hospital bed serial ")
                .l(Device, &device_serial(r))
                .t(" and O2 concentrator SN ")
                .l(Device, &device_serial(r))
                .t(&format!(" delivered; PO {}.\n", r.digits(7)));
        }
        let rel2 = p.rels.last().unwrap();
        w.t(&format!("Bereavement contact: {} ", rel2.rel))
            .l(P, &rel2.name.full())
            .t(", cell ");
        put_phone(&mut w, r, &rel2.phone);
        if r.chance(50) {
            w.t(", ").l(
                Email,
                &format!(
                    "{}.{}@{}",
                    slug(rel2.name.first),
                    slug(rel2.name.last),
                    r.pick(&["gmail.com", "yahoo.com"])
                ),
            );
        }
        w.t(".\n");
        w.t(&format!("Chaplain {chaplain} visited. "));
        put_short(&mut w, r, &p);
        w.t(&format!(
            " {}. Next visit {}.\n",
            r.pick(&[
                "resting comfortably",
                "asked for her hymnal",
                "wants to see the grandkids Sunday",
                "denies pain"
            ]),
            r.pick(&["Friday", "in 2 days", "next Monday", "end of week"])
        ));
        w
    }

    fn workcomp(&mut self) -> W {
        let p = self.patient(1958, 2003);
        let today = self.today();
        let prov = self.staff();
        let adj = self.name_pct(50);
        let sup = self.name_pct(50);
        let mut w = W::default();
        let r = &mut self.r;
        let doi = today.minus(r.range(5, 60));
        w.t("CEDAR RIDGE OCCUPATIONAL HEALTH — ")
            .t(r.pick(&[
                "WORK STATUS REPORT",
                "Physician's Report of Work Injury",
                "RTW note",
            ]))
            .t("\n");
        w.t(&format!("To: {}, adjuster ", r.pick(PAYERS)))
            .l(P, &adj.full())
            .t(", fax ")
            .l(Fax, &any_phone(r))
            .t("\n");
        w.t("Date: ").l(D, &today.any(r)).t("\n");
        w.t("Employee: ");
        put_name(&mut w, r, &p.name);
        w.t("   ");
        put_dob(&mut w, r, &p);
        w.t(r.pick(&["   SSN: ", "   SS# ", "   Social Security No. "]))
            .l(Ssn, &p.ssn)
            .t("\n");
        w.t(&format!("Employer: {} (supervisor ", r.pick(EMPLOYERS)))
            .l(P, &sup.full())
            .t(")\n");
        w.t(r.pick(&["Claim #: ", "Claim No. ", "WC claim "]))
            .l(Account, &format!("WC-{}-{}", today.y % 100, r.digits(7)))
            .t("   Date of injury: ")
            .l(D, &doi.any(r))
            .t("\n");
        if r.chance(60) {
            w.t(&format!(
                "Vehicle involved: {} {}, VIN ",
                r.range(2012, 2024),
                r.pick(&[
                    "Freightliner Cascadia",
                    "Ford Transit",
                    "Peterbilt 579",
                    "Ford F-250"
                ])
            ))
            .l(Vehicle, &vin(r))
            .t(&format!(", plate {} ", p.state))
            .l(Vehicle, &plate(r))
            .t("\n");
        }
        if r.chance(60) {
            w.t(&format!("CDL: {} ", p.state))
                .l(License, &licence(r, p.state))
                .t("\n");
        }
        let (code, dx) = r.pick(&[
            ("S39.012A", "lumbar strain"),
            ("S61.412A", "hand laceration"),
            ("M54.50", "low back pain"),
            ("S83.511A", "ACL sprain"),
        ]);
        w.t(&format!(
            "Dx: {code} {dx}. Work status: {}",
            r.pick(&[
                "modified duty, no lifting > 20 lb until ",
                "off work until ",
                "full duty as of "
            ])
        ));
        w.l(D, &today.plus(r.range(7, 30)).any(r)).t(".\n");
        let next = today.plus(r.range(7, 21));
        w.t("Next appt ").l(D, &next.any(r)).t(&format!(
            " {}:{:02}. CPT {}. ",
            r.range(8, 16),
            r.pick(&[0, 15, 30, 45]),
            r.pick(&["99213", "99214", "97110"])
        ));
        w.t(&format!(
            "Provider: {} {}, MD (NPI {}).\n",
            prov.0,
            prov.1,
            npi(r)
        ));
        w.t("Home: ");
        put_addr_line(&mut w, r, &p);
        w.t("; cell ");
        put_phone(&mut w, r, &p.phone);
        w.t(".\n");
        w
    }

    fn school(&mut self) -> W {
        let p = self.patient(2010, 2021);
        let today = self.today();
        let teacher = self.name_pct(70);
        let ped = self.staff();
        let mut w = W::default();
        let r = &mut self.r;
        let school = r.pick(&[
            "Maplewood Elementary",
            "Lincoln Middle School",
            "Riverside K-8",
            "Eastgate Academy",
        ]);
        w.t(&format!("{school} — School Nurse Visit Log\n"));
        w.t("Date: ").l(D, &today.any(r)).t(&format!(
            "   Time in {}:{:02}, out {}:{:02}\n",
            r.range(8, 11),
            r.range(0, 59),
            r.range(11, 14),
            r.range(0, 59)
        ));
        w.t("Student: ");
        put_name(&mut w, r, &p.name);
        w.t(&format!(
            "   Grade {}   ",
            p.dob.age_on(today).saturating_sub(5).clamp(1, 8)
        ));
        put_dob(&mut w, r, &p);
        w.t(r.pick(&["   Student ID ", "   ID# ", "   Student #"]))
            .l(Mrn, &r.digits(8))
            .t("\n");
        w.t("Teacher: ")
            .t(r.pick(&["Mrs. ", "Mr. ", "Ms. "]))
            .l(P, teacher.last)
            .t(", room ")
            .l(Room, &r.range(1, 40).to_string())
            .t("\n");
        w.t(&format!(
            "Complaint: {}. {}\n",
            r.pick(&[
                "wheeze after recess",
                "headache, T 37.9 C",
                "scraped knee on playground",
                "low BG 62 mg/dL before lunch"
            ]),
            r.pick(&[
                "Albuterol HFA 2 puffs via spacer, lot ",
                "Ibuprofen 200 mg per standing order, lot ",
                "Glucose tabs 16 g, lot ",
            ])
        ));
        w.text.pop();
        w.t(&lot(r))
            .t(&format!(", exp {:02}/{}.\n", r.range(1, 12), today.y + 1));
        let par = &p.rels[0];
        w.t(&format!("Guardian ({}): ", par.rel))
            .l(P, &par.name.full())
            .t(", mobile ");
        put_phone(&mut w, r, &par.phone);
        w.t(&format!(
            ", called {}:{:02} — {}.",
            r.range(9, 12),
            r.range(0, 59),
            r.pick(&[
                "no answer; left VM",
                "will pick up",
                "ok to return to class"
            ])
        ));
        if p.rels.len() > 1 {
            let em = &p.rels[1];
            w.t(&format!(" Emergency contact: {} ", em.rel))
                .l(P, &em.name.full())
                .t(" ");
            put_phone(&mut w, r, &em.phone);
            w.t(".");
        }
        w.t("\n");
        if r.chance(50) {
            w.t("Picked up by ")
                .t(r.pick(&["father", "mother", "grandmother", "aunt"]))
                .t(" in car with plate ")
                .l(Vehicle, &plate(r))
                .t(&format!(" at {}:{:02}.\n", r.range(11, 15), r.range(0, 59)));
        }
        w.t(&format!(
            "PCP: Dr. {} {}, Maplewood Family Medicine. Care plan on file since {} {}.\n",
            ped.0,
            ped.1,
            r.pick(&MONTHS[..]),
            today.y - 1
        ));
        if r.chance(40) {
            w.t("Home address on file: ");
            put_addr_line(&mut w, r, &p);
            w.t("\n");
        }
        w
    }

    fn roi(&mut self) -> W {
        let p = self.patient(1940, 2000);
        let today = self.today();
        let atty = self.name_pct(40);
        let para = self.name_pct(70);
        let clerk = self.staff();
        let mut w = W::default();
        let r = &mut self.r;
        let firm = r.pick(&[
            "Ashby Lane Legal Group",
            "Corwin & Vale LLP",
            "Prairie Justice Partners",
            "Meridian Injury Law",
        ]);
        let clinic = r.pick(CLINICS);
        w.t(&format!("{}\nAttorneys at Law\n\n", firm.to_uppercase()));
        w.l(D, &today.any(r))
            .t("\n\nVIA FAX ")
            .l(Fax, &any_phone(r))
            .t("\n");
        w.t(&format!("{clinic}\nAttn: Medical Records / HIM\n\n"));
        w.t("Re: Request for records — our client ");
        put_name(&mut w, r, &p.name);
        w.t(", ");
        put_dob(&mut w, r, &p);
        if r.chance(50) {
            w.t(", SSN ").l(Ssn, &p.ssn);
        }
        w.t("\n\nPlease produce all records, itemized bills and imaging from ");
        w.l(
            D,
            &Date {
                y: today.y - 2,
                m: 1,
                d: 1,
            }
            .any(r),
        )
        .t(" to present, including account ")
        .l(Account, &p.acct)
        .t(".\n");
        w.t("A signed HIPAA-compliant authorization dated ")
            .l(D, &today.minus(r.range(2, 20)).any(r))
            .t(" is enclosed.\n");
        w.t("Send to our paralegal ")
            .l(P, &para.full())
            .t(" at ")
            .l(
                Email,
                &format!(
                    "{}{}@{}",
                    slug(para.first).chars().next().unwrap(),
                    slug(para.last),
                    r.pick(&["ashbylane.law", "corwinvale.com", "pjp-law.com"])
                ),
            )
            .t(" or fax ")
            .l(Fax, &any_phone(r))
            .t(".\n\nSincerely,\n");
        w.l(P, &atty.full()).t(", Esq.\n\n");
        w.t(&format!("--- HIM log ({} {}) ---\n", clerk.0, clerk.1));
        w.t(&format!(
            "Request ROI-{}-{} received ",
            today.y,
            r.digits(4)
        ))
        .l(D, &today.plus(r.range(1, 3)).any(r));
        if r.chance(60) {
            w.t(" via portal from IP ").l(Ip, &ip(r));
        }
        w.t(". Identity verified: ")
            .t(p.state)
            .t(" DL ")
            .l(License, &licence(r, p.state))
            .t(".\n");
        w.t(&format!(
            "Invoice INV-{} (${}.{:02}, {} pages at $0.{}/page).",
            r.digits(6),
            r.range(6, 90),
            r.range(0, 99),
            r.range(12, 400),
            r.range(10, 75)
        ));
        if r.chance(50) {
            w.t(" Fee paid by card ").l(Card, &card(r)).t(&format!(
                " exp {:02}/{}.",
                r.range(1, 12),
                r.range(27, 31)
            ));
        }
        w.t("\n");
        w
    }

    fn eob(&mut self) -> W {
        let p = self.patient(1935, 2015);
        let today = self.today();
        let mut w = W::default();
        let r = &mut self.r;
        let payer = r.pick(PAYERS);
        let clinic = r.pick(CLINICS);
        w.t(&format!(
            "{payer}\nEXPLANATION OF BENEFITS — THIS IS NOT A BILL\n"
        ));
        w.t("Statement date: ").l(D, &today.any(r)).t("\n");
        let child = p.dob.y > 2006;
        let sub = if child { &p.rels[0].name } else { &p.name };
        w.t("Member: ");
        if r.chance(50) {
            w.l(P, &fold(sub.last).to_uppercase())
                .t(", ")
                .l(P, &fold(sub.first).to_uppercase());
        } else {
            w.l(P, &sub.full());
        }
        w.t(r.pick(&["   Member ID: ", "   ID# ", "   Subscriber ID "]))
            .l(HealthPlan, &p.member)
            .t("\n");
        if child {
            w.t("Patient: ").l(P, &p.name.full()).t(" (dependent)\n");
        }
        w.t("Mail to: ");
        w.l(P, &sub.full().to_uppercase()).t("\n");
        let street = match &p.unit {
            Some(u) => format!("{} {u}", p.street),
            None => p.street.clone(),
        };
        w.l(Address, &street.to_uppercase())
            .t("\n")
            .l(Address, &p.city.to_uppercase())
            .t(&format!(" {}  ", p.state))
            .l(Zip, &format!("{}-{}", p.zip, p.zip4))
            .t("\n\n");
        w.t("Claim number: ")
            .l(Account, &r.digits(13))
            .t(&format!("   Provider: {clinic}   Patient acct: "))
            .l(Account, &p.acct)
            .t("\n");
        w.t("Service date | Service | Billed | Allowed | Plan paid | You owe\n");
        let dos = today.minus(r.range(14, 60));
        for _ in 0..r.range(1, 4) {
            let billed = r.range(40, 900);
            let allowed = billed * 3 / 4;
            w.l(D, &dos.us()).t(&format!(
                " | {} {} | ${billed}.00 | ${allowed}.00 | ${}.00 | ${}.00\n",
                r.pick(CPT),
                r.pick(&[
                    "office visit",
                    "chemo IV infusion 1 hr",
                    "therapeutic exercise",
                    "venipuncture"
                ]),
                allowed * 4 / 5,
                allowed - allowed * 4 / 5
            ));
        }
        w.t(&format!(
            "Remark codes: {}, {}. Deductible met: ${} of ${}.\n",
            r.pick(&["N130", "M15", "CO-45", "PR-2"]),
            r.pick(&["MA01", "N381"]),
            r.range(100, 1500),
            r.pick(&[1500, 3000])
        ));
        w.t("Questions? Member Services ");
        let toll = format!("800{}{}", r.range(2, 9), r.digits(6));
        put_phone(&mut w, r, &toll);
        w.t(&format!(
            " (TTY 711), {}.\n",
            r.pick(&["Mon–Fri 8–6", "24/7", "weekdays 7 am to 7 pm"])
        ));
        w.t(&format!("Autopay: card on file ending {}.\n", r.digits(4)));
        w
    }

    fn interpret(&mut self) -> W {
        let p = self.patient(1926, 1990);
        let today = self.today();
        let interp = self.staff();
        let doc = self.staff_ref();
        let mut w = W::default();
        let r = &mut self.r;
        let lang = r.pick(&[
            "Vietnamese",
            "Spanish",
            "Somali",
            "Ukrainian",
            "Arabic",
            "Haitian Creole",
            "Marshallese",
        ]);
        w.t(&format!("Interpreter Services Encounter — {lang}\n"));
        w.t("Date: ").l(D, &today.any(r)).t(&format!(
            " {}:{:02}–{}:{:02}   Modality: {}\n",
            r.range(8, 12),
            r.range(0, 59),
            r.range(12, 16),
            r.range(0, 59),
            r.pick(&["in person", "VRI", "OPI (phone)"])
        ));
        w.t(&format!(
            "Interpreter: {} {} (ID {})\n",
            interp.0,
            interp.1,
            r.digits(5)
        ));
        w.t("Patient: ");
        if r.chance(30) {
            w.l(P, p.name.last).t(" ").l(P, p.name.first);
            w.t(" (family name first)");
        } else {
            put_name(&mut w, r, &p.name);
        }
        w.t(", ");
        put_mrn(&mut w, r, &p);
        w.t(", ");
        put_dob(&mut w, r, &p);
        let age = p.dob.age_on(today);
        if age >= 90 || r.chance(30) {
            w.t(", ");
            put_age(&mut w, r, age);
        }
        w.t(&format!("\nProvider: {doc}. Family present: "));
        for (i, rel) in p.rels.iter().enumerate() {
            if i > 0 {
                w.t("; ");
            }
            w.t(&format!("{} ", rel.rel))
                .l(P, &rel.name.full())
                .t(" (phone ");
            put_phone(&mut w, r, &rel.phone);
            w.t(")");
        }
        w.t(".\n");
        w.t(&format!(
            "Notes: sight-translated {}; pt used teach-back. {}. ",
            r.pick(&[
                "discharge instructions",
                "consent for colonoscopy",
                "the new insulin plan",
                "the hospice election form"
            ]),
            r.pick(&[
                "Son asked that we not use him to interpret",
                "Pt prefers female interpreter",
                "Cultural broker note: fasting during Ramadan",
                "No concerns"
            ])
        ));
        put_short(&mut w, r, &p);
        w.t(&format!(
            " will be called {} at ",
            r.pick(&[
                "next Monday",
                "tomorrow afternoon",
                "end of day",
                "in two weeks"
            ])
        ));
        put_phone(&mut w, r, &p.phone);
        w.t(&format!(" with a {lang} interpreter on the line.\n"));
        w
    }

    fn trial(&mut self) -> W {
        let today = self.today();
        let coord = self.staff();
        let site = self.r.range(101, 140);
        let mut rows = Vec::new();
        for _ in 0..self.r.range(3, 5) {
            rows.push(self.patient(1936, 2000));
        }
        let mut w = W::default();
        let r = &mut self.r;
        w.t(&format!(
            "Protocol {}-{} (NCT0{}) — Screening Log   Site {site}   PI: Dr. {}\n",
            r.pick(&["LKS-ONC", "GPC-HF", "NWH-OB"]),
            r.range(1000, 9999),
            r.digits(7),
            coord.1
        ));
        w.t("Scr # | Subject ID | Name | MRN | DOB | Consent | Status\n");
        for (i, p) in rows.iter().enumerate() {
            w.t(&format!(
                "S-{:03} | {site}-{:03} | ",
                i + 1 + r.below(30),
                r.range(1, 99)
            ));
            if r.chance(50) {
                w.l(P, p.name.last).t(", ").l(P, p.name.first);
            } else {
                w.l(P, &p.name.full());
            }
            w.t(" | ")
                .l(Mrn, &p.mrn)
                .t(" | ")
                .l(D, &p.dob.us())
                .t(" | ");
            if r.chance(75) {
                w.l(D, &today.minus(r.range(1, 40)).iso());
            } else {
                w.t("declined");
            }
            w.t(&format!(
                " | {}\n",
                r.pick(&[
                    "eligible",
                    "screen fail (eGFR 38)",
                    "randomized",
                    "pending echo",
                    "screen fail (ECOG 3)"
                ])
            ));
        }
        let p = &rows[0];
        w.t("\nNote: ");
        w.t(if p.female { "Ms. " } else { "Mr. " })
            .l(P, p.name.last)
            .t(&format!("'s {} called (", p.rels[0].rel));
        put_phone(&mut w, r, &p.rels[0].phone);
        w.t(&format!(
            ") about travel reimbursement; stipend ${} per visit. Visit 2 window {}–{} days. Coordinator {} {}.\n",
            r.pick(&[50, 75, 100]),
            r.range(12, 14),
            r.range(15, 18),
            coord.0,
            coord.1
        ));
        if r.chance(50) {
            w.t(&format!(
                "Randomization code {} assigned; kit # {}.\n",
                r.alnum(6),
                r.digits(5)
            ));
        }
        w
    }

    fn ophtho(&mut self) -> W {
        let p = self.patient(1926, 1970);
        let today = self.today();
        let doc = self.staff_ref();
        let mut w = W::default();
        let r = &mut self.r;
        let eye = r.pick(&["OD", "OS"]);
        let op = today.minus(r.range(1, 7));
        w.t("BLUESTEM EYE INSTITUTE — ")
            .t(r.pick(&["Post-op Day 1", "Post-op Week 1", "Cataract follow-up"]))
            .t("\n");
        w.t("Name: ");
        put_name(&mut w, r, &p.name);
        w.t("   ");
        put_dob(&mut w, r, &p);
        w.t(" (");
        put_age(&mut w, r, p.dob.age_on(today));
        w.t(")   ");
        put_mrn(&mut w, r, &p);
        w.t("\nSeen ")
            .l(D, &today.any(r))
            .t(&format!(" by {doc}.\n"));
        w.t(&format!("{eye}: s/p phaco/IOL "))
            .l(D, &op.any(r))
            .t(&format!(
                ". IOL {} {}.{} D, serial ",
                r.pick(&["Alcon SN60WF", "J&J ZCB00", "B+L enVista"]),
                r.range(16, 26),
                r.pick(&[0, 5])
            ))
            .l(Device, &r.digits(11))
            .t(&format!(", lot {}.\n", lot(r)));
        w.t(&format!(
            "VA sc OD 20/{}, OS 20/{}. IOP {}/{} mmHg. AC {}.\n",
            r.pick(&[20, 25, 30, 40, 60]),
            r.pick(&[20, 25, 40, 70, 100]),
            r.range(10, 22),
            r.range(10, 22),
            r.pick(&["deep and quiet", "1+ cell", "trace flare"])
        ));
        w.t(&format!(
            "Drops: {} QID {eye}, moxifloxacin 0.5% TID x1 wk. CPT {}, ICD-10 {}.\n",
            r.pick(&["prednisolone 1%", "difluprednate 0.05%"]),
            r.pick(&["66984", "92012", "99024"]),
            r.pick(&["H25.11", "H25.12", "Z96.1"])
        ));
        let rel = &p.rels[0];
        w.t(&format!("Driver: {} ", rel.rel)).l(P, &rel.name.full());
        if r.chance(60) {
            w.t(" (plate ").l(Vehicle, &plate(r)).t(")");
        }
        w.t(", reachable at ");
        put_phone(&mut w, r, &rel.phone);
        w.t(".\nNext: ");
        w.l(D, &today.plus(r.range(6, 30)).any(r)).t(&format!(
            " at {}:{:02} {}.\n",
            r.range(8, 11),
            r.pick(&[0, 15, 30, 45]),
            r.pick(&["AM", "am"])
        ));
        w
    }

    fn ptnote(&mut self) -> W {
        let p = self.patient(1940, 2008);
        let today = self.today();
        let reff = self.staff();
        let therapist = self.staff_ref();
        let mut w = W::default();
        let r = &mut self.r;
        let n = r.range(4, 12);
        w.t(&format!(
            "Riverbend Physical Therapy — Progress Note (visit {n} of {})\n",
            n + r.range(0, 8)
        ));
        w.t("Patient: ");
        put_name(&mut w, r, &p.name);
        w.t("   ");
        put_dob(&mut w, r, &p);
        w.t(&format!("   Referring: Dr. {} {}\n", reff.0, reff.1));
        w.t("Date of service: ").l(D, &today.any(r)).t("\n");
        let surg = today.minus(r.range(20, 120));
        w.t(&format!(
            "Dx: {} {}, s/p repair ",
            r.pick(&["M75.101", "S83.511A", "M17.11", "M54.16"]),
            r.pick(&[
                "rotator cuff tear",
                "ACL tear",
                "knee OA",
                "lumbar radiculopathy"
            ])
        ))
        .l(D, &surg.any(r))
        .t(".\n");
        w.t(&format!(
            "ROM: flexion {}°, ER {}°. Strength {}/5. 3x10 with {} lb. Pain {}/10.\n",
            r.range(90, 170),
            r.range(20, 90),
            r.range(3, 5),
            r.range(1, 10),
            r.range(0, 8)
        ));
        w.t(&format!(
            "CPT 97110 x{}, 97140 x1, 97530 x{}. Goals: lift 10 lb overhead by ",
            r.range(1, 3),
            r.range(1, 2)
        ))
        .l(D, &today.plus(r.range(20, 60)).any(r))
        .t(".\n");
        let rel = &p.rels[0];
        w.t(&format!(
            "Pt reports {} is back at {}; {} ",
            if p.female { "she" } else { "he" },
            r.pick(EMPLOYERS),
            rel.rel
        ))
        .l(P, rel.name.first)
        .t(" drives to sessions.\n");
        let next = today.plus(r.range(2, 6));
        w.t(&format!(
            "HEP updated. Next visit {} ",
            DAYS[next.weekday()]
        ))
        .l(D, &format!("{}/{}", next.m, next.d))
        .t(&format!(
            " at {}:{:02}.\n",
            r.range(7, 17),
            r.pick(&[0, 30])
        ));
        w.t("Home: ");
        put_addr_line(&mut w, r, &p);
        w.t(". Cell ");
        put_phone(&mut w, r, &p.phone);
        if r.chance(40) {
            w.t(". Handicap placard ")
                .l(License, &format!("{}{}", r.letters(2), r.digits(6)));
        }
        w.t(&format!(".\nTherapist: {therapist}\n"));
        w
    }

    fn faxcover(&mut self) -> W {
        let p = self.patient(1930, 2010);
        let today = self.today();
        let to = self.staff();
        let from = self.staff();
        let mut w = W::default();
        let r = &mut self.r;
        let (c1, c2) = (r.pick(CLINICS), r.pick(CLINICS));
        w.t(r.pick(&[
            "FAX\n",
            "FACSIMILE TRANSMITTAL\n",
            "*** FAX COVER SHEET ***\n",
        ]));
        w.t("Date: ")
            .l(D, &today.any(r))
            .t(&format!("   Pages (incl. cover): {}\n", r.range(2, 14)));
        w.t(&format!("To: Dr. {} {} / {c1}   Fax: ", to.0, to.1))
            .l(Fax, &any_phone(r))
            .t("   Phone: ");
        put_new_phone(&mut w, r);
        w.t(&format!("\nFrom: {} {}, RN — {c2}   Fax: ", from.0, from.1))
            .l(Fax, &any_phone(r))
            .t("   Phone ");
        put_new_phone(&mut w, r);
        w.t("\nRe: ");
        put_name(&mut w, r, &p.name);
        w.t(", ");
        put_dob(&mut w, r, &p);
        w.t(&format!(
            " — {}\n",
            r.pick(&[
                "echo before cycle 3",
                "prior auth clinicals",
                "records as requested",
                "wound care orders",
                "DME order to sign"
            ])
        ));
        w.t(r.pick(&[
            "[ ] Urgent  [x] For review  [ ] Please reply\n",
            "URGENT - please call on receipt\n",
            "Please sign and fax back by end of day.\n",
        ]));
        if r.chance(50) {
            w.t("Enclosed: H&P of ")
                .l(D, &today.minus(r.range(1, 30)).any(r))
                .t(&format!(
                    ", labs (LOINC {}), order #{}.\n",
                    r.pick(LOINC),
                    r.digits(8)
                ));
        }
        if r.chance(45) {
            let rel = &p.rels[0];
            w.t("\nPAYMENT AUTHORIZATION (page 2)\nCardholder: ")
                .l(P, &rel.name.full())
                .t(&format!(" ({})\nCard #: ", rel.rel))
                .l(Card, &card(r))
                .t(&format!(
                    "  Exp {:02}/{}\nBilling address: ",
                    r.range(1, 12),
                    r.range(27, 31)
                ));
            put_addr_line(&mut w, r, &p);
            w.t("\n");
        }
        w.t(&format!("\nCONFIDENTIALITY NOTICE: this facsimile contains PHI. If received in error call {} and destroy all copies.\n", from.1));
        w
    }

    fn vcard(&mut self) -> W {
        let p = self.patient(1930, 2006);
        let mut w = W::default();
        let r = &mut self.r;
        if r.chance(55) {
            w.t("BEGIN:VCARD\nVERSION:3.0\nN:")
                .l(P, p.name.last)
                .t(";")
                .l(P, p.name.first)
                .t(";");
            if let Some(m) = p.name.middle {
                w.l(P, m);
            }
            w.t(";;\nFN:").l(P, &p.name.full()).t("\n");
            if p.name.nick() != p.name.first {
                w.t("NICKNAME:").l(P, p.name.nick()).t("\n");
            }
            w.t(&format!("ORG:{} (patient)\n", r.pick(CLINICS)));
            let ph = &p.phone;
            w.t("TEL;TYPE=CELL:")
                .l(
                    Phone,
                    &format!("+1-{}-{}-{}", &ph[..3], &ph[3..6], &ph[6..]),
                )
                .t("\n");
            if r.chance(50) {
                w.t("TEL;TYPE=HOME:").l(Phone, &any_phone(r)).t("\n");
            }
            w.t("EMAIL;TYPE=INTERNET:").l(Email, &p.email).t("\n");
            w.t("ADR;TYPE=HOME:;");
            if let Some(u) = &p.unit {
                w.l(Address, u);
            }
            w.t(";")
                .l(Address, &p.street)
                .t(";")
                .l(Address, p.city)
                .t(&format!(";{};", p.state))
                .l(Zip, &p.zip)
                .t(";USA\n");
            w.t("BDAY:")
                .l(
                    D,
                    &if r.chance(50) {
                        p.dob.iso()
                    } else {
                        p.dob.compact()
                    },
                )
                .t("\n");
            let rel = &p.rels[0];
            w.t("NOTE:");
            put_mrn(&mut w, r, &p);
            w.t(&format!("\\; {} ", rel.rel))
                .l(P, rel.name.first)
                .t(" (POA) ");
            put_phone(&mut w, r, &rel.phone);
            // REV is a day-precision date too.
            let rev = Date::random(r, 2024, 2026).compact();
            w.t("\nREV:").l(D, &rev).t("T000000Z\nEND:VCARD\n");
        } else {
            w.t("Full name:      ");
            put_name(&mut w, r, &p.name);
            w.t("\nJob title:      patient\nCompany:        ")
                .t(r.pick(EMPLOYERS))
                .t("\nMobile:         ");
            put_phone(&mut w, r, &p.phone);
            w.t("\nE-mail:         ").l(Email, &p.email);
            w.t(" (").l(P, &p.name.full()).t(")\n");
            w.t("Home address:   ");
            put_addr_line(&mut w, r, &p);
            w.t("\nBirthday:       ");
            let wd = DAYS[p.dob.weekday()];
            w.t(&format!("{wd}, "))
                .l(D, &format!("{} {}, {}", p.dob.month(), p.dob.d, p.dob.y));
            w.t("\nCategories:     Patients; ")
                .t(r.pick(&["VIP", "Hospice", "Oncology"]));
            w.t("\nNotes:          ");
            put_mrn(&mut w, r, &p);
            w.t(". Plan ")
                .l(HealthPlan, &p.member)
                .t(". Spouse/contact: ");
            let rel = &p.rels[0];
            w.l(P, &rel.name.full()).t(" ");
            put_phone(&mut w, r, &rel.phone);
            w.t("\n");
        }
        w
    }

    fn calendar(&mut self) -> W {
        let p = self.patient(1930, 2010);
        let today = self.today();
        let org = self.staff();
        let a1 = self.staff();
        let a2 = self.staff();
        let mut w = W::default();
        let r = &mut self.r;
        let when = today.plus(r.range(1, 20));
        let what = r.pick(&[
            "C3 chemo teach + port flush",
            "family meeting",
            "post-op check",
            "hospice eval",
            "PT re-eval",
            "IEP health plan review",
        ]);
        if r.chance(50) {
            w.t("Subject: ");
            match r.below(3) {
                0 => {
                    w.l(P, p.name.last).t(", ").l(P, p.name.first);
                }
                1 => {
                    w.l(P, &p.name.full());
                }
                _ => {
                    w.l(P, &p.name.full().to_uppercase());
                }
            }
            w.t(&format!(" – {what}\nWhen: {}, ", DAYS[when.weekday()]));
            w.l(D, &format!("{} {}, {}", when.month(), when.d, when.y));
            w.t(&format!(
                " {}:00 AM-{}:00 AM (UTC-06:00) Central Time (US & Canada)\n",
                r.range(7, 10),
                r.range(10, 11)
            ));
            w.t(r.pick(&[
                "Where: Infusion Room ",
                "Where: Consult Rm ",
                "Where: Exam room ",
            ]))
            .l(Room, &r.range(1, 40).to_string())
            .t(" / Teams\n");
            w.t(&format!(
                "Organizer: {} {}\nRequired: {} {}; {} {}\n\n",
                org.0, org.1, a1.0, a1.1, a2.0, a2.1
            ));
            w.t(&format!("@{} {} can you cosign? ", a1.0, a1.1));
            w.t("Pt ");
            put_mrn(&mut w, r, &p);
            w.t(". ");
            let rel = &p.rels[0];
            w.t(&format!("{} ", rel.rel))
                .l(P, rel.name.first)
                .t(" will join by phone ");
            put_phone(&mut w, r, &rel.phone);
            w.t(&format!(
                ".\nJoin: https://teams.microsoft.com/l/meetup-join/19%3ameeting_{}%40thread.v2/0\nReminder: 15 minutes before\n",
                r.alnum(24)
            ));
        } else {
            w.t("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTAMP:")
                .l(D, &today.compact())
                .t(&format!("T{:02}{:02}00Z\n", r.range(0, 23), r.range(0, 59)));
            w.t("DTSTART;TZID=America/Chicago:")
                .l(D, &when.compact())
                .t(&format!("T{:02}0000\n", r.range(8, 16)));
            w.t(&format!("SUMMARY:{} ", r.pick(&["F/U", "Visit:", "Call"])))
                .l(P, &p.name.full())
                .t(" (MRN ")
                .l(Mrn, &p.mrn)
                .t(&format!(") - {what}\n"));
            w.t("LOCATION:")
                .t(r.pick(&["Room ", "Rm ", "Bay "]))
                .l(Room, &r.range(100, 480).to_string())
                .t("\n");
            let staff_mail = format!(
                "{}{}@lakeshoreonc.org",
                slug(org.0).chars().next().unwrap(),
                slug(org.1)
            );
            w.t(&format!("ORGANIZER;CN={} {}:mailto:", org.0, org.1))
                .l(Email, &staff_mail)
                .t("\n");
            w.t(&format!(
                "ATTENDEE;CN={} {};ROLE=REQ-PARTICIPANT:mailto:",
                a1.0, a1.1
            ))
            .l(
                Email,
                &format!("{}.{}@lakeshoreonc.org", slug(a1.0), slug(a1.1)),
            )
            .t("\n");
            w.t("DESCRIPTION:");
            put_short(&mut w, r, &p);
            w.t(" prefers calls at ");
            put_phone(&mut w, r, &p.phone);
            w.t("\\nBring med list. Auth #")
                .l(Account, &r.digits(9))
                .t(&format!(
                    " valid through {} {}.\n",
                    r.pick(&MONTHS[..]),
                    today.y + 1
                ));
            w.t(&format!(
                "UID:{}@lakeshoreonc.org\nEND:VEVENT\nEND:VCALENDAR\n",
                r.alnum(16)
            ));
        }
        w
    }

    fn spanish(&mut self) -> W {
        let p = self.patient(1930, 2004);
        let today = self.today();
        let doc = self.staff();
        let mut w = W::default();
        let r = &mut self.r;
        w.t(r.pick(&["Hola, ", "Buenos días, ", "Buenas tardes. ", "Saludos, "]));
        w.t(r.pick(&["me llamo ", "soy ", "mi nombre es "]));
        if r.chance(25) {
            w.l(P, &p.name.full().to_lowercase());
        } else {
            w.l(P, &p.name.full());
        }
        w.t(", mi fecha de nacimiento es ");
        if r.chance(50) {
            w.t("el ").l(D, &p.dob.es());
        } else {
            w.l(D, &format!("{:02}/{:02}/{}", p.dob.d, p.dob.m, p.dob.y));
        }
        w.t(&format!(". Soy paciente de la Dra. {}.\n", doc.1));
        let cita = today.plus(r.range(2, 20));
        w.t(&format!(
            "Necesito {} mi cita del {} ",
            r.pick(&["cambiar", "reprogramar", "cancelar"]),
            DIAS[cita.weekday()]
        ))
        .l(D, &format!("{} de {}", cita.d, MESES[cita.m as usize - 1]))
        .t(&format!(
            " a las {}:{:02}",
            r.range(8, 16),
            r.pick(&[0, 30])
        ));
        w.t(r.pick(&[
            " porque no tengo transporte.",
            " porque trabajo ese día.",
            ", la próxima semana me queda mejor.",
            ", mañana le llamo otra vez.",
        ]));
        w.t(" Mi número es ");
        put_phone(&mut w, r, &p.phone);
        w.t(".\n");
        let rel = &p.rels[0];
        let rel_es = match rel.rel {
            "daughter" | "granddaughter" | "niece" => "Mi hija",
            "son" | "grandson" => "Mi hijo",
            "wife" | "partner" => "Mi esposa",
            "husband" => "Mi esposo",
            "mother" => "Mi mamá",
            "father" => "Mi papá",
            "sister" => "Mi hermana",
            _ => "Mi hermano",
        };
        w.t(&format!("{rel_es} "))
            .l(P, rel.name.first)
            .t(" me ayuda con el portal: ")
            .l(
                Email,
                &format!(
                    "{}.{}{}@gmail.com",
                    slug(rel.name.first),
                    slug(rel.name.last),
                    r.range(1, 99)
                ),
            )
            .t(".\n");
        if r.chance(60) {
            w.t("Vivo en ");
            put_addr_line(&mut w, r, &p);
            w.t(". ");
        }
        w.t("Mi número de expediente es ").l(Mrn, &p.mrn);
        if r.chance(60) {
            w.t(" y mi tarjeta de seguro dice ")
                .l(HealthPlan, &p.member);
        }
        w.t(&format!(
            ".\nTomo {} y {}.\n",
            r.pick(&[
                "metformina 1000 mg dos veces al día",
                "losartán 50 mg",
                "insulina 20 unidades"
            ]),
            r.pick(&[
                "me siento mejor",
                "todavía tengo dolor",
                "ya no tengo pastillas"
            ])
        ));
        w.t(r.pick(&["Gracias, ", "Muchas gracias,\n", "Bendiciones, "]));
        let sig = if r.chance(50) {
            p.name.nick().to_string()
        } else {
            p.name.first.to_lowercase()
        };
        w.l(P, &sig).t("\n");
        w
    }

    fn reply(&mut self) -> W {
        let p = self.patient(1935, 2006);
        let today = self.today();
        let st = self.staff();
        let mut w = W::default();
        let r = &mut self.r;
        let st_mail = format!(
            "{}{}@lakeshoreonc.org",
            slug(st.0).chars().next().unwrap(),
            slug(st.1)
        );
        let sent = today.plus(1);
        let dn = &DAYS[sent.weekday()][..3];
        w.t("From: ")
            .l(P, &p.name.full())
            .t(" <")
            .l(Email, &p.email)
            .t(">\n");
        w.t(&format!("To: {} {} <", st.0, st.1))
            .l(Email, &st_mail)
            .t(">\n");
        w.t(&format!("Date: {dn}, "))
            .l(D, &format!("{} {} {}", sent.d, sent.mon(), sent.y))
            .t(&format!(
                " {:02}:{:02}:{:02} -0500\n",
                r.range(6, 22),
                r.range(0, 59),
                r.range(0, 59)
            ));
        let subj = r.pick(&[
            "labs before cycle 3",
            "refill question",
            "my appointment",
            "billing",
            "form for work",
        ]);
        w.t(&format!("Subject: Re: {subj}\n\n"));
        w.t(&format!(
            "{} {} — {}\n",
            r.pick(&["Thanks", "thank you", "Hi"]),
            st.0,
            r.pick(&[
                "I can come Thursday at 8. My husband will drive.",
                "the pharmacy still says no refills.",
                "i paid the bill online yesterday.",
                "can you fax the form to my employer?",
            ])
        ));
        if r.chance(35) {
            w.t("Here is my card for the copay: ")
                .l(Card, &card(r))
                .t(&format!(
                    " exp {:02}/{}.\n",
                    r.range(1, 12),
                    r.range(27, 31)
                ));
        }
        if r.chance(40) {
            w.t("My new number is ");
            put_new_phone(&mut w, r);
            w.t(".\n");
        }
        let sig = if r.chance(50) {
            p.name.nick().to_lowercase()
        } else {
            p.name.nick().to_string()
        };
        w.t("\n").l(P, &sig).t("\n\n");
        let dn2 = &DAYS[today.weekday()][..3];
        w.t(&format!("On {dn2}, "))
            .l(D, &format!("{} {}, {}", today.mon(), today.d, today.y))
            .t(&format!(
                " at {}:{:02} PM {} {} <",
                r.range(1, 5),
                r.range(0, 59),
                st.0,
                st.1
            ))
            .l(Email, &st_mail)
            .t("> wrote:\n");
        w.t("> Hi ");
        put_short(&mut w, r, &p);
        let lab = today.minus(r.range(1, 5));
        w.t(&format!(
            ", your {} from ",
            r.pick(&["CBC", "CMP", "A1c", "INR"])
        ))
        .l(D, &lab.us())
        .t(" looked fine.\n");
        w.t("> Please confirm your DOB (we have ")
            .l(D, &p.dob.any(r))
            .t(") and your member ID ")
            .l(HealthPlan, &p.member)
            .t(".\n");
        if r.chance(50) {
            w.t("> Your portal: ")
                .l(
                    Url,
                    &format!("https://myportal.lakeshoreonc.org/chart?pid={}", p.mrn),
                )
                .t("\n");
        }
        if r.chance(40) {
            w.t("> (Sign-in from a new device, IP ")
                .l(Ip, &ip(r))
                .t(", was noticed on ")
                .l(D, &lab.short(r))
                .t(".)\n");
        }
        w.t(&format!(
            "> {} {}, RN | Lakeshore Oncology Associates | ",
            st.0, st.1
        ));
        put_new_phone(&mut w, r);
        w.t("\n>\n");
        let prev = today.minus(r.range(1, 3));
        w.t(&format!(">> On {}, ", &DAYS[prev.weekday()][..3]))
            .l(D, &format!("{} {}, {}", prev.mon(), prev.d, prev.y))
            .t(", ")
            .l(P, &p.name.full())
            .t(" <")
            .l(Email, &p.email)
            .t("> wrote:\n");
        w.t(&format!(
            ">> {}\n",
            r.pick(&[
                "do I need to fast before the labs?",
                "my daughter says the nausea pills are not working",
                "what time is my appointment next week",
                "I lost the paper with my port care instructions",
            ])
        ));
        w
    }
}

/// `n` documents, the families in turn, from `seed`.
pub fn generate(seed: u64, n: usize) -> Set {
    let mut g = G {
        r: Rng(seed),
        patients: 0,
        roster: Vec::new(),
    };
    let mut docs = Vec::with_capacity(n);
    for i in 0..n {
        let family = FAMILIES[i % FAMILIES.len()];
        let mut w = match family {
            "x12" => g.x12(),
            "ccda" => g.ccda(),
            "fhir" => g.fhir(),
            "prenatal" => g.prenatal(),
            "infusion" => g.infusion(),
            "dialysis" => g.dialysis(),
            "hospice" => g.hospice(),
            "workcomp" => g.workcomp(),
            "school" => g.school(),
            "roi" => g.roi(),
            "eob" => g.eob(),
            "interpret" => g.interpret(),
            "trial" => g.trial(),
            "ophtho" => g.ophtho(),
            "ptnote" => g.ptnote(),
            "faxcover" => g.faxcover(),
            "vcard" => g.vcard(),
            "calendar" => g.calendar(),
            "spanish" => g.spanish(),
            _ => g.reply(),
        };
        w.labels.sort_by_key(|l| (l.start, l.end));
        for pair in w.labels.windows(2) {
            assert!(
                pair[0].end <= pair[1].start,
                "overlapping labels in {family}"
            );
        }
        docs.push(Doc {
            family,
            text: w.text,
            labels: w.labels,
        });
    }
    let mut keep: Vec<String> = STAFF.iter().map(|(f, l)| format!("{f} {l}")).collect();
    keep.extend(CLINICS.iter().map(|c| c.to_string()));
    keep.extend(PAYERS.iter().map(|c| c.to_string()));
    Set {
        docs,
        roster: g.roster,
        keep,
    }
}
