//! The fifth blind evaluation set for the PHI redactor: a seeded generator of documents from
//! families no earlier set used, each with byte-exact labels of every identifier in it.
//! Written without reading the redactor's rules, word lists or the other sets' generators.
//! Conventions: every phone/fax number and day-precision date is labelled (month/year alone is
//! not), ages only from 90, a room or bed by its number, a city as an Address and a ZIP as a
//! Zip (a state is not labelled), "Last, First" as two labels (the comma is not part of a
//! name), a phone without its extension. Staff, the practice, payers, codes (NPI, CPT,
//! ICD-10, HCPCS, NDC, LOINC, CVX), lots, order and PO numbers, doses, vitals, times and
//! relative dates are not identifiers of the patient and stay unlabelled.

use opsdesk::governance::redact::Kind;

use crate::redaction_harness::{Doc, Label, Set};

pub const FAMILIES: [&str; 22] = [
    "wound",
    "sleep",
    "audiology",
    "podiatry",
    "bariatric",
    "transplant",
    "nicu",
    "part2",
    "court",
    "jail",
    "delivery",
    "dur",
    "appeal",
    "msn",
    "ambulance",
    "poa",
    "funeral",
    "vxu",
    "survey",
    "multiling",
    "markdown",
    "slack",
];

/// splitmix64: small, seeded, no crate.
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
    fn chance(&mut self, pct: usize) -> bool {
        self.below(100) < pct
    }
    fn digits(&mut self, n: usize) -> String {
        (0..n)
            .map(|i| {
                let d = if i == 0 {
                    self.range(1, 9)
                } else {
                    self.range(0, 9)
                };
                char::from(b'0' + d as u8)
            })
            .collect()
    }
    fn letters(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from(b'A' + self.below(26) as u8))
            .collect()
    }
}

const FIRST: &[&str] = &[
    "Maribel",
    "Desmond",
    "Oluwaseun",
    "Thanh",
    "Ingrid",
    "Rafael",
    "Hope",
    "Grace",
    "Will",
    "Rose",
    "Summer",
    "Hunter",
    "Faith",
    "Bill",
    "Joy",
    "Mary-Kate",
    "Jean-Luc",
    "Zoë",
    "José",
    "Siobhán",
    "Søren",
    "Łukasz",
    "Anaïs",
    "Björn",
    "Nguyễn",
    "Priyanka",
    "Tariq",
    "Yusuf",
    "Leilani",
    "Kwame",
    "Amara",
    "Dmitri",
    "Svetlana",
    "Hiroshi",
    "Mei",
    "Jae-won",
    "Chidi",
    "Fatima",
    "Aroha",
    "Tupac",
    "Esperanza",
    "Guadalupe",
    "Kateryna",
    "Bogdan",
    "Ayşe",
    "Mehmet",
    "Parveen",
    "Rohan",
    "Teodora",
    "Cosmin",
    "Nayeli",
    "Ximena",
    "Lorraine",
    "Delbert",
    "Earline",
    "Wendell",
    "Ruby",
    "Ivy",
    "Jasper",
    "Minh",
    "Bao",
    "Rhiannon",
    "Tadhg",
    "Marisol",
    "Dalia",
];
const LAST: &[&str] = &[
    "Okonkwo",
    "Vasquez-Ibarra",
    "Tran",
    "Lindqvist",
    "Moreau",
    "O'Sullivan",
    "McAllister",
    "D'Angelo",
    "van der Berg",
    "de la Cruz",
    "Baker",
    "Mason",
    "Fields",
    "Brown",
    "Rivers",
    "Church",
    "Hale",
    "Stone",
    "Young",
    "Rich",
    "Nakamura",
    "Kowalczyk",
    "Müller",
    "Haddad",
    "Abubakar",
    "Petrov",
    "Castellanos",
    "Ramírez",
    "Nguyen",
    "Pham",
    "Bautista",
    "Dela Peña",
    "Reyes",
    "Santos",
    "Oliveira",
    "Gonçalves",
    "Jean-Baptiste",
    "Toussaint",
    "Chowdhury",
    "Iyer",
    "Goldfarb",
    "Schwartz",
    "Whitehorse",
    "Begay",
    "Kealoha",
    "Mahlangu",
    "Dlamini",
    "Al-Masri",
    "Yılmaz",
    "Ferreira",
    "Lachance",
    "Thibodeaux",
    "Szabo",
    "Horvath",
    "Ng",
    "Li",
    "Park",
    "Choi",
    "Fitzgerald-Kerr",
    "St. Clair",
    "Le",
    "Do",
    "Long",
    "Winter",
];
const NICK: &[(&str, &str)] = &[
    ("Robert", "Bobby"),
    ("Margaret", "Peggy"),
    ("William", "Billy"),
    ("Elizabeth", "Betsy"),
    ("Richard", "Dick"),
    ("Katherine", "Kit"),
];
const STREETS: &[&str] = &[
    "Alder Creek Rd",
    "Tamarack Ln",
    "Old Mill Pike",
    "Calle Esperanza",
    "W 14th St",
    "Bayou Teche Hwy",
    "Sycamore Ct",
    "Rue Dauphine",
    "Kamehameha Ave",
    "Prairie Wind Dr",
    "N Lincoln Blvd",
    "Cottonwood Trl",
    "Harbor View Ter",
    "Elm St",
    "County Road 12",
];
const CITIES: &[(&str, &str)] = &[
    ("Eau Claire", "WI"),
    ("Opelousas", "LA"),
    ("Yakima", "WA"),
    ("Hilo", "HI"),
    ("Lowell", "MA"),
    ("Las Cruces", "NM"),
    ("Dubuque", "IA"),
    ("Kingsport", "TN"),
    ("Fall River", "MA"),
    ("Garden Grove", "CA"),
    ("Bangor", "ME"),
    ("Pueblo", "CO"),
    ("Joplin", "MO"),
    ("Hamtramck", "MI"),
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
const STAFF: &[&str] = &[
    "Priscilla Weatherby",
    "Anand Subramanian",
    "Colette Marchand",
    "Gustavo Perreira",
    "Hannah Lindgren",
    "Obinna Eze",
    "Rebecca Stroud",
    "Tomasz Wierzbicki",
    "Keiko Arakawa",
    "Darnell Whitfield",
];
const PRACTICE: &[&str] = &[
    "Riverbend Health",
    "Northgate Sleep Center",
    "Cascade Transplant Institute",
    "Harborlight Recovery",
    "Summit Home Infusion",
    "Bluewater Ambulance",
    "Meadowlark Funeral Home",
    "Pinecrest Hearing Clinic",
];
const PAYERS: &[&str] = &[
    "Aetna",
    "Humana Gold Plus",
    "Blue Cross Blue Shield of Texas",
    "UnitedHealthcare",
    "Medicaid of Louisiana",
    "Cigna",
    "Molina Healthcare",
    "Kaiser Permanente",
];
const DRUGS: &[&str] = &[
    "warfarin",
    "apixaban",
    "vancomycin",
    "buprenorphine-naloxone",
    "metformin",
    "tacrolimus",
    "mycophenolate",
    "semaglutide",
    "ceftriaxone",
    "lisinopril",
    "sertraline",
    "naltrexone",
];
const ICD: &[&str] = &[
    "E11.9", "G47.33", "H90.3", "L97.412", "E66.01", "F11.20", "Z94.0", "I10",
];
const CPT: &[&str] = &[
    "99213", "95810", "92557", "11042", "43775", "A0427", "E0601", "J1885",
];

#[derive(Clone)]
struct Patient {
    first: String,
    last: String,
    mi: char,
    nick: Option<String>,
    dob: (u32, u32, u32),
    phone: (u32, u32, u32),
    email: String,
    mrn: String,
    member: String,
    ssn: String,
    street: String,
    city: &'static str,
    state: &'static str,
    zip: String,
    rel_first: String,
    rel_last: String,
}

impl Patient {
    fn new(r: &mut Rng) -> Patient {
        let (first, nick) = if r.chance(8) {
            let (f, n) = r.pick(NICK);
            (f.to_string(), Some(n.to_string()))
        } else {
            (r.pick(FIRST).to_string(), None)
        };
        let last = r.pick(LAST).to_string();
        let year = if r.chance(15) {
            r.range(1926, 1935)
        } else {
            r.range(1938, 2008)
        };
        let dob = (year, r.range(1, 12), r.range(1, 28));
        let plain = |s: &str| -> String {
            s.chars()
                .filter(|c| c.is_ascii_alphabetic())
                .collect::<String>()
                .to_lowercase()
        };
        let email = match r.below(4) {
            0 => format!("{}.{}@gmail.com", plain(&first), plain(&last)),
            1 => format!(
                "{}{}{}@yahoo.com",
                &plain(&first)[..1],
                plain(&last),
                r.range(1, 99)
            ),
            2 => format!("{}_{}@outlook.com", plain(&last), year % 100),
            _ => format!(
                "{}.{}{}@icloud.com",
                plain(&first),
                plain(&last),
                r.range(1, 9)
            ),
        };
        let (city, state) = r.pick(CITIES);
        let rel_last = if r.chance(70) {
            last.clone()
        } else {
            r.pick(LAST).to_string()
        };
        Patient {
            mi: char::from(b'A' + r.below(26) as u8),
            phone: (r.range(201, 989), r.range(202, 989), r.range(1000, 9999)),
            email,
            mrn: r.digits(8),
            member: format!("{}{}", r.letters(3), r.digits(9)),
            ssn: format!(
                "{}-{:02}-{:04}",
                r.range(100, 665),
                r.range(1, 99),
                r.range(1, 9999)
            ),
            street: format!("{} {}", r.range(12, 9870), r.pick(STREETS)),
            city,
            state,
            zip: if r.chance(30) {
                format!("{:05}-{:04}", r.range(10000, 99950), r.range(1, 9999))
            } else {
                format!("{:05}", r.range(10000, 99950))
            },
            rel_first: r.pick(FIRST).to_string(),
            rel_last,
            first,
            last,
            nick,
            dob,
        }
    }
    fn full(&self) -> String {
        format!("{} {}", self.first, self.last)
    }
    fn age(&self) -> u32 {
        2026 - self.dob.0
    }
}

/// A document being written: text and the labels of its identifiers.
struct B {
    text: String,
    labels: Vec<Label>,
}

impl B {
    fn t(&mut self, s: &str) -> &mut Self {
        self.text.push_str(s);
        self
    }
    fn l(&mut self, s: &str, kind: Kind) -> &mut Self {
        let start = self.text.len();
        self.text.push_str(s);
        self.labels.push(Label {
            start,
            end: self.text.len(),
            kind,
        });
        self
    }
    fn person(&mut self, s: &str) -> &mut Self {
        self.l(s, Kind::Person)
    }
    /// The patient's name in one of many written forms.
    fn name(&mut self, r: &mut Rng, p: &Patient) -> &mut Self {
        match r.below(9) {
            0..=2 => self.person(&p.full()),
            3 => {
                self.person(&p.last);
                self.t(", ");
                self.person(&p.first)
            }
            4 => {
                self.person(&p.last.to_uppercase());
                self.t(", ");
                self.person(&p.first.to_uppercase())
            }
            5 => self.person(&format!("{} {}. {}", p.first, p.mi, p.last)),
            6 => match &p.nick {
                // The quotes are not part of the name: three labels.
                Some(n) => {
                    self.person(&p.first);
                    self.t(" \"").person(n).t("\" ");
                    self.person(&p.last)
                }
                None => self.person(&p.full().to_lowercase()),
            },
            7 => self.person(&format!("{}. {}", &p.first.chars().next().unwrap(), p.last)),
            _ => self.person(&p.full().to_uppercase()),
        }
    }
    fn rel(&mut self, p: &Patient) -> &mut Self {
        self.person(&format!("{} {}", p.rel_first, p.rel_last))
    }
    fn date(&mut self, r: &mut Rng, (y, m, d): (u32, u32, u32)) -> &mut Self {
        let mon = MONTHS[m as usize - 1];
        let s = match r.below(9) {
            0 | 1 => format!("{m:02}/{d:02}/{y}"),
            2 => format!("{m}/{d}/{:02}", y % 100),
            3 => format!("{y}-{m:02}-{d:02}"),
            4 => format!("{mon} {d}, {y}"),
            5 => format!("{d} {} {y}", &mon[..3]),
            6 => format!("{}-{d:02}-{y}", &mon[..3].to_uppercase()),
            7 => format!("{}. {d}, {y}", &mon[..3]),
            _ => format!("{m}-{d}-{y}"),
        };
        self.l(&s, Kind::Date)
    }
    fn phone(&mut self, r: &mut Rng, (a, b, c): (u32, u32, u32), kind: Kind) -> &mut Self {
        let s = match r.below(7) {
            0 | 1 => format!("({a}) {b}-{c}"),
            2 => format!("{a}-{b}-{c}"),
            3 => format!("{a}.{b}.{c}"),
            4 => format!("+1 {a} {b} {c}"),
            5 => format!("+1-{a}-{b}-{c}"),
            _ => format!("{a}{b}{c}"),
        };
        self.l(&s, kind)
    }
    fn newdate(&mut self, r: &mut Rng) -> &mut Self {
        let d = rdate(r);
        self.date(r, d)
    }
    fn newphone(&mut self, r: &mut Rng, kind: Kind) -> &mut Self {
        let p = rphone(r);
        self.phone(r, p, kind)
    }
    fn addr(&mut self, p: &Patient, sep: &str) -> &mut Self {
        self.l(&p.street, Kind::Address);
        self.t(sep);
        self.l(p.city, Kind::Address);
        self.t(&format!(", {} ", p.state));
        self.l(&p.zip, Kind::Zip)
    }
}

fn rdate(r: &mut Rng) -> (u32, u32, u32) {
    (r.range(2025, 2026), r.range(1, 12), r.range(1, 28))
}
fn rphone(r: &mut Rng) -> (u32, u32, u32) {
    (r.range(201, 989), r.range(202, 989), r.range(1000, 9999))
}
fn staff(r: &mut Rng) -> &'static str {
    r.pick(STAFF)
}
fn npi(r: &mut Rng) -> String {
    format!("1{}", r.digits(9))
}
fn card(r: &mut Rng) -> String {
    let mut d: Vec<u32> = vec![4];
    for _ in 0..14 {
        d.push(r.range(0, 9));
    }
    // Luhn check digit over the 15 digits.
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
    if r.chance(50) {
        format!("{} {} {} {}", &s[0..4], &s[4..8], &s[8..12], &s[12..16])
    } else {
        format!("{}-{}-{}-{}", &s[0..4], &s[4..8], &s[8..12], &s[12..16])
    }
}
fn plate(r: &mut Rng) -> String {
    format!("{}{}", r.digits(1), r.letters(3)) + &r.digits(3)
}
fn ip(r: &mut Rng) -> String {
    format!(
        "{}.{}.{}.{}",
        r.range(23, 223),
        r.range(0, 255),
        r.range(0, 255),
        r.range(1, 254)
    )
}

fn wound(r: &mut Rng, p: &Patient, b: &mut B) {
    let d = rdate(r);
    b.t("Wound care photo log — ")
        .t(r.pick(PRACTICE))
        .t("\nPatient: ");
    b.name(r, p).t("   MRN ").l(&p.mrn, Kind::Mrn).t("   DOB ");
    b.date(r, p.dob)
        .t("\nSite: left heel, stage 3 pressure injury (")
        .t(r.pick(ICD))
        .t(")\n");
    for i in 0..r.range(2, 3) {
        let (y, m, dd) = (d.0, d.1, (d.2 + i * 7).min(28));
        // A photo's file name carries the surname, MRN and date: each labelled as itself.
        b.t("- ")
            .person(&p.last.replace([' ', '\''], ""))
            .t("_")
            .l(&p.mrn, Kind::Mrn);
        b.t("_")
            .l(&format!("{y}{m:02}{dd:02}"), Kind::Date)
            .t("_heel.jpg");
        b.t(" taken ").date(r, (y, m, dd));
        b.t(&format!(
            " 09:{:02}, 3.{} x 2.{} cm, depth 0.{} cm\n",
            r.range(10, 59),
            i,
            i + 1,
            i + 2
        ));
    }
    b.t("Viewer: ");
    b.l(
        &format!("https://photos.riverbend.example/wounds/{}?view=1", p.mrn),
        Kind::Url,
    );
    b.t("\nDebridement CPT 11042, next dressing change Thursday. Signed ")
        .t(staff(r))
        .t(", RN\n");
}

fn sleep(r: &mut Rng, p: &Patient, b: &mut B) {
    b.t("NORTHGATE SLEEP CENTER — POLYSOMNOGRAPHY REPORT\nName: ");
    b.name(r, p).t("\nDOB: ").date(r, p.dob).t("   Acct#: ");
    b.l(&format!("SL-{}", r.digits(7)), Kind::Account)
        .t("\nStudy date: ");
    b.newdate(r)
        .t("   Room ")
        .l(&r.range(1, 12).to_string(), Kind::Room);
    b.t(&format!(
        "\nAHI {}.{} events/h, nadir SpO2 {}%, CPT 95810, dx G47.33\nCPAP titrated to {} cm H2O. Device serial ",
        r.range(5, 60),
        r.range(0, 9),
        r.range(78, 92),
        r.range(6, 14)
    ));
    b.l(&format!("{}{}", r.letters(2), r.digits(9)), Kind::Device);
    b.t(" (ResMed AirSense 11, HCPCS E0601, lot ")
        .t(&r.letters(2))
        .t(&r.digits(5))
        .t(")\n");
    b.t("Call the patient at ").phone(r, p.phone, Kind::Phone);
    b.t(&format!(
        " ext. {} before 5 pm. Interpreted by Dr. {}, NPI {}\n",
        r.range(10, 99),
        staff(r),
        npi(r)
    ));
}

fn audiology(r: &mut Rng, p: &Patient, b: &mut B) {
    b.t("Pinecrest Hearing Clinic — hearing aid fitting\n");
    b.name(r, p).t(", ");
    if p.age() >= 90 {
        b.l(&p.age().to_string(), Kind::Age).t("-year-old");
    } else {
        b.t("adult");
    }
    b.t(", seen ")
        .newdate(r)
        .t(". Audiogram (CPT 92557): moderate SNHL, H90.3.\n");
    b.t("Right aid serial ")
        .t("SN ")
        .l(&r.digits(10), Kind::Device);
    b.t(", left aid serial ")
        .l(&format!("{}-{}", r.letters(3), r.digits(6)), Kind::Device);
    b.t("\nDaughter ")
        .rel(p)
        .t(" will pick up the charger; her cell ");
    let ph = rphone(r);
    b.phone(r, ph, Kind::Phone).t(".\nMail batteries to ");
    b.addr(p, ", ")
        .t(".\nAudiologist: ")
        .t(staff(r))
        .t(", Au.D. Follow-up in 2 weeks.\n");
}

fn podiatry(r: &mut Rng, p: &Patient, b: &mut B) {
    b.t("PODIATRY NOTE\nPt: ");
    b.name(r, p)
        .t(" | DOB ")
        .date(r, p.dob)
        .t(" | MRN: ")
        .l(&p.mrn, Kind::Mrn);
    b.t("\n");
    if p.age() >= 90 {
        b.l(&p.age().to_string(), Kind::Age).t(" y/o ");
    } else {
        b.t("Pt is a ");
    }
    b.t("diabetic (E11.9) with onychomycosis; nail debridement 11721, A1c 8.1 on ");
    b.t(&format!("{}/{}", r.range(1, 12), r.range(2025, 2026)));
    b.t(".\nDiabetic shoes ordered (HCPCS A5500), PO# ")
        .t(&r.digits(10));
    b.t(".\nHome: ")
        .addr(p, " ")
        .t("  Ph ")
        .phone(r, p.phone, Kind::Phone);
    b.t("\nInsurance: ")
        .t(r.pick(PAYERS))
        .t(" member ID ")
        .l(&p.member, Kind::HealthPlan);
    b.t("\nDr. ").t(staff(r)).t(", DPM\n");
}

fn bariatric(r: &mut Rng, p: &Patient, b: &mut B) {
    b.t("From: Bariatric Program <bariatrics@riverbend.example>\nTo: ");
    b.l(&p.email, Kind::Email)
        .t("\nSubject: Your pre-op class and deposit\n\nHi ");
    b.person(&p.first)
        .t(",\n\nYou are booked for the nutrition class on ");
    b.newdate(r)
        .t(" at 10:00 and surgery (CPT 43775) is pencilled in for ");
    b.newdate(r).t(&format!(
        ". Your BMI at intake was {}.{}. Stop {} 7 days before.\n",
        r.range(35, 55),
        r.range(0, 9),
        r.pick(DRUGS)
    ));
    b.t("We charged the $250 self-pay deposit to card ")
        .l(&card(r), Kind::Card);
    b.t(".\nParking permit for plate ")
        .l(&plate(r), Kind::Vehicle);
    b.t(" is at the front desk.\n\n— ")
        .t(staff(r))
        .t(", program coordinator, Riverbend Health\n");
}

fn transplant(r: &mut Rng, p: &Patient, b: &mut B) {
    b.t("Transplant coordination — Cascade Transplant Institute\nRecipient: ");
    b.name(r, p)
        .t(" (MRN ")
        .l(&p.mrn, Kind::Mrn)
        .t("), DOB ")
        .date(r, p.dob);
    b.t("\nUNOS waitlist ID ")
        .l(&format!("{}{}", r.letters(3), r.digits(6)), Kind::Mrn);
    b.t(&format!(
        "\nKidney offer received {} at 02:15, cPRA {}%, tacrolimus trough goal 8-10 ng/mL.\n",
        "overnight",
        r.range(0, 99)
    ));
    b.t("Admitted to room ");
    b.l(
        &format!(
            "{}{:02}-{}",
            r.range(4, 9),
            r.range(1, 40),
            r.pick(&["A", "B"])
        ),
        Kind::Room,
    );
    b.t(" on ");
    b.newdate(r).t(".\nCaregiver: ").rel(p).t(", ");
    let ph = rphone(r);
    b.phone(r, ph, Kind::Phone)
        .t(". Coordinator ")
        .t(staff(r))
        .t(" paged ");
    b.t(&format!("x{}.\n", r.range(4000, 4999)));
}

fn nicu(r: &mut Rng, p: &Patient, b: &mut B) {
    let born = rdate(r);
    b.t("NICU parent update\nInfant: Baby Boy ")
        .person(&p.last)
        .t(" (MRN ")
        .l(&r.digits(8), Kind::Mrn);
    b.t("), born ").date(r, born).t(&format!(
        " at {} weeks, {} g\nPod ",
        r.range(24, 36),
        r.range(600, 2400)
    ));
    b.l(&r.range(1, 6).to_string(), Kind::Room)
        .t(", isolette ")
        .l(&r.range(1, 40).to_string(), Kind::Room);
    b.t("\nMother: ")
        .name(r, p)
        .t(", DOB ")
        .date(r, p.dob)
        .t("; father ")
        .rel(p);
    b.t("\nParents' phone ")
        .phone(r, p.phone, Kind::Phone)
        .t(", email ")
        .l(&p.email, Kind::Email);
    b.t("\nCaffeine citrate 5 mg/kg daily, on 2 L HFNC. Eye exam next Tuesday. Neonatologist: ");
    b.t(staff(r)).t("\n");
}

fn part2(r: &mut Rng, p: &Patient, b: &mut B) {
    b.t("CONFIDENTIAL — 42 CFR Part 2 protected record. Harborlight Recovery intake\n");
    b.t("Client name: ")
        .name(r, p)
        .t("\nDate of birth: ")
        .date(r, p.dob);
    b.t("\nSSN: ")
        .l(&p.ssn, Kind::Ssn)
        .t("\nDriver's license: ");
    b.l(&format!("{}{}", r.letters(1), r.digits(8)), Kind::License)
        .t(&format!(" ({})", p.state));
    b.t("\nAddress: ")
        .addr(p, ", ")
        .t("\nDx F11.20; induction with buprenorphine-naloxone 8 mg/2 mg.\n");
    b.t("Consent to disclose to probation officer signed ")
        .newdate(r);
    b.t(". Emergency contact: ")
        .rel(p)
        .t(" ")
        .newphone(r, Kind::Phone);
    b.t("\nCounselor: ").t(staff(r)).t("\n");
}

fn court(r: &mut Rng, p: &Patient, b: &mut B) {
    b.t("COURT-ORDERED COMPETENCY EVALUATION\nCase No. ");
    b.l(
        &format!("{}-CR-{}", r.range(2024, 2026), r.digits(5)),
        Kind::Account,
    );
    b.t("\nDefendant: ").name(r, p).t(", DOB ").date(r, p.dob);
    b.t("\nArrested after traffic stop, vehicle plate ")
        .l(&plate(r), Kind::Vehicle);
    b.t(", license ").l(
        &format!("{}-{}-{}", r.letters(1), r.digits(3), r.digits(4)),
        Kind::License,
    );
    b.t(".\nEvaluation held ").newdate(r).t(&format!(
        " at 13:30; {} interviews, MMSE {}/30.\nDefense counsel fax: ",
        r.range(2, 3),
        r.range(18, 30)
    ));
    b.newphone(r, Kind::Fax)
        .t("\nEvaluator: ")
        .t(staff(r))
        .t(", PhD\n");
}

fn jail(r: &mut Rng, p: &Patient, b: &mut B) {
    b.t("County Detention Health Services — sick call\nInmate: ")
        .name(r, p);
    b.t("  Booking # ").l(
        &format!("{}{}", r.range(24, 26), r.digits(6)),
        Kind::Account,
    );
    b.t("\nHousing: unit ")
        .t(&r.letters(1))
        .t(", cell ")
        .l(&format!("{}", r.range(100, 299)), Kind::Room);
    b.t("\nDOB ")
        .date(r, p.dob)
        .t("   SSN ")
        .l(&p.ssn, Kind::Ssn);
    b.t(&format!(
        "\nComplaint: withdrawal, COWS {}. BP {}/{}, HR {}. Started clonidine 0.1 mg.\nNext of kin: ",
        r.range(5, 20),
        r.range(110, 160),
        r.range(60, 99),
        r.range(60, 120)
    ));
    b.rel(p)
        .t(", ")
        .newphone(r, Kind::Phone)
        .t("\nSeen by ")
        .t(staff(r))
        .t(", NP\n");
}

fn delivery(r: &mut Rng, p: &Patient, b: &mut B) {
    b.t("SUMMIT HOME INFUSION — DELIVERY SLIP\nDeliver to: ")
        .name(r, p)
        .t("\n");
    b.addr(p, "\n")
        .t("\nPhone: ")
        .phone(r, p.phone, Kind::Phone);
    b.t("\nDelivery date: ")
        .newdate(r)
        .t(" window 08:00-12:00\nRx# ");
    b.t(&r.digits(7)).t(&format!(
        " {} 1 g IV q12h, NDC 0409-{}-01, lot {}{}\nPump: CADD-Solis serial ",
        r.pick(DRUGS),
        r.digits(4),
        r.letters(1),
        r.digits(5)
    ));
    b.l(&r.digits(8), Kind::Device)
        .t("\nPatient ID ")
        .l(&p.mrn, Kind::Mrn);
    b.t("\nReceived by: ")
        .rel(p)
        .t(" (signature)\nDriver: ")
        .t(staff(r))
        .t("\n");
}

fn dur(r: &mut Rng, p: &Patient, b: &mut B) {
    let d1 = r.pick(DRUGS);
    let d2 = r.pick(DRUGS);
    b.t(&format!(
        "*** DUR ALERT *** Severity: major\nInteraction: {d1} + {d2}\nPatient: "
    ));
    b.name(r, p)
        .t("  DOB ")
        .date(r, p.dob)
        .t("  Rx# ")
        .t(&r.digits(7));
    b.t("\nCardholder ID: ")
        .l(&p.member, Kind::HealthPlan)
        .t(&format!(
            "  BIN {}  PCN RX{}\nPrescriber: Dr. {}, NPI {}\nFilled ",
            r.digits(6),
            r.digits(3),
            staff(r),
            npi(r)
        ));
    b.newdate(r).t(&format!(
        ", qty {} days supply 30. Pharmacist override code 1G. Call patient ",
        r.range(30, 90)
    ));
    b.phone(r, p.phone, Kind::Phone).t(" re: INR today.\n");
}

fn appeal(r: &mut Rng, p: &Patient, b: &mut B) {
    b.t("Riverbend Health — Utilization Review\nFax to ")
        .t(r.pick(PAYERS))
        .t(" appeals: ");
    b.l(
        &format!("1-800-{}-{}", r.range(200, 999), r.range(1000, 9999)),
        Kind::Fax,
    );
    b.t("\n\nRE: Level 1 appeal for ")
        .name(r, p)
        .t("\nMember ID: ")
        .l(&p.member, Kind::HealthPlan);
    b.t("\nClaim number: ").l(
        &format!("{}{}", r.range(20, 26), r.digits(11)),
        Kind::Account,
    );
    b.t("\nDate of service: ")
        .newdate(r)
        .t("\nDOB: ")
        .date(r, p.dob);
    b.t(&format!(
        "\n\nTo whom it may concern: the denial of {} (CPT {}) for {} is not consistent with policy. ",
        r.pick(DRUGS),
        r.pick(CPT),
        r.pick(ICD)
    ));
    b.t("Please return the decision by fax to ")
        .newphone(r, Kind::Fax);
    b.t(". The member logged the request in the portal from ")
        .l(&ip(r), Kind::Ip);
    b.t(".\n\nSincerely,\n").t(staff(r)).t(", MD\n");
}

fn msn(r: &mut Rng, p: &Patient, b: &mut B) {
    b.t("Medicare Summary Notice for Part B\n");
    b.l(&p.full().to_uppercase(), Kind::Person)
        .t("\n")
        .l(&p.street.to_uppercase(), Kind::Address);
    b.t("\n")
        .l(&p.city.to_uppercase(), Kind::Address)
        .t(&format!(" {} ", p.state))
        .l(&p.zip, Kind::Zip);
    b.t("\nMedicare Number: ");
    let mbi = format!(
        "{}{}{}-{}{}{}-{}{}",
        r.digits(1),
        r.letters(2),
        r.range(0, 9),
        r.letters(1),
        r.range(0, 9),
        r.range(0, 9),
        r.letters(2),
        r.digits(2)
    );
    b.l(&mbi, Kind::HealthPlan);
    b.t("\nNotice date: ").newdate(r);
    b.t(&format!(
        "\nClaim from {} for services on ",
        r.pick(PRACTICE)
    ));
    b.newdate(r).t(&format!(
        "\n  Office visit (99214)  charged ${}.00  Medicare approved ${}.{:02}  You may be billed $0.00\n",
        r.range(150, 400),
        r.range(90, 140),
        r.range(0, 99)
    ));
    b.t("Questions? Call ")
        .l("1-800-633-4227", Kind::Phone)
        .t(" (TTY ");
    b.l("1-877-486-2048", Kind::Phone)
        .t("). Log in at medicare.gov.\n");
}

fn ambulance(r: &mut Rng, p: &Patient, b: &mut B) {
    b.t("BLUEWATER AMBULANCE — STATEMENT\nAccount: ")
        .l(&format!("BWA{}", r.digits(8)), Kind::Account);
    b.t("   Run #: ")
        .t(&r.digits(6))
        .t("\nPatient: ")
        .name(r, p)
        .t("\nTransport date: ");
    b.newdate(r).t(&format!(
        "\nA0427 ALS emergency ${}.00; A0425 mileage {} mi\nUnit M{} from ",
        r.range(800, 1900),
        r.range(3, 40),
        r.range(1, 30)
    ));
    b.addr(p, ", ")
        .t(" to Riverbend Health ED\nInsurance: ")
        .t(r.pick(PAYERS))
        .t(" ");
    b.l(&p.member, Kind::HealthPlan)
        .t("\nPay by phone ")
        .l("1-888-555-0142", Kind::Phone);
    b.t(" or card: ")
        .l(&card(r), Kind::Card)
        .t("\nBilling contact ")
        .t(staff(r))
        .t("\n");
}

fn poa(r: &mut Rng, p: &Patient, b: &mut B) {
    b.t("DURABLE POWER OF ATTORNEY FOR HEALTH CARE\nI, ")
        .name(r, p)
        .t(", born ");
    b.date(r, p.dob).t(", residing at ").addr(p, ", ");
    b.t(", appoint ")
        .rel(p)
        .t(" as my agent. Agent phone: ")
        .newphone(r, Kind::Phone);
    b.t(", fax ").newphone(r, Kind::Fax).t(", email ");
    let plain: String = p
        .rel_first
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .collect();
    b.l(
        &format!("{}.agent{}@proton.me", plain.to_lowercase(), r.range(1, 99)),
        Kind::Email,
    );
    b.t(".\nSigned ")
        .newdate(r)
        .t(" before notary ")
        .t(staff(r));
    b.t(", commission expires 06/2029.\n");
}

fn funeral(r: &mut Rng, p: &Patient, b: &mut B) {
    let dod = rdate(r);
    b.t("From: arrangements@meadowlark.example\nTo: vital.records@county.example\nSubject: Death certificate worksheet — ");
    b.l(&p.last.to_uppercase(), Kind::Person)
        .t("\n\nDecedent: ")
        .name(r, p)
        .t("\nAge: ");
    if p.age() >= 90 {
        b.l(&p.age().to_string(), Kind::Age);
    } else {
        b.t("see DOB");
    }
    b.t("   DOB: ")
        .date(r, p.dob)
        .t("   Date of death: ")
        .date(r, dod);
    b.t("\nSSN: ")
        .l(&p.ssn, Kind::Ssn)
        .t("\nResidence: ")
        .addr(p, ", ");
    b.t("\nInformant: ")
        .rel(p)
        .t(" (child), ")
        .newphone(r, Kind::Phone);
    b.t("\nCause: cardiopulmonary arrest due to I10. Certifier: Dr. ")
        .t(staff(r));
    b.t("\nService Saturday at 11:00, Meadowlark Funeral Home.\n");
}

fn vxu(r: &mut Rng, p: &Patient, b: &mut B) {
    let hl = |s: &str| s.to_uppercase();
    b.t("MSH|^~\\&|RIVERBEND|RB|IIS|STATE|||VXU^V04^VXU_V04|")
        .t(&r.digits(9))
        .t("|P|2.5.1\r");
    b.t("PID|1||").l(&p.mrn, Kind::Mrn).t("^^^RB^MR||");
    b.person(&hl(&p.last)).t("^").person(&hl(&p.first)).t("^");
    b.person(&p.mi.to_string()).t("||");
    let (y, m, d) = p.dob;
    b.l(&format!("{y}{m:02}{d:02}"), Kind::Date)
        .t("|F||2106-3|");
    b.l(&hl(&p.street), Kind::Address)
        .t("^^")
        .l(&hl(p.city), Kind::Address);
    b.t(&format!("^{}^", p.state))
        .l(&p.zip, Kind::Zip)
        .t("^USA||");
    let (a, x, c) = p.phone;
    b.l(&format!("({a}){x}-{c}"), Kind::Phone).t("\r");
    b.t("NK1|1|")
        .person(&hl(&p.rel_last))
        .t("^")
        .person(&hl(&p.rel_first))
        .t("|MTH^Mother^HL70063\r");
    let (y, m, d) = rdate(r);
    b.t("RXA|0|1|")
        .l(&format!("{y}{m:02}{d:02}"), Kind::Date)
        .t("|");
    b.l(&format!("{y}{m:02}{d:02}"), Kind::Date).t(&format!(
        "|{}^{}^CVX|0.5|mL^mL^UCUM||00^New record^NIP001|||||||{}{}||SKB^GlaxoSmithKline^MVX\r",
        r.pick(&["141", "208", "115", "03"]),
        r.pick(&["Influenza", "COVID-19", "Tdap", "MMR"]),
        r.letters(2),
        r.digits(4)
    ));
}

fn survey(r: &mut Rng, p: &Patient, b: &mut B) {
    b.t(&format!(
        "Patient experience survey #{} — free-text answers\n",
        r.digits(6)
    ));
    b.t("Q: Anything else? A: the nurse ")
        .t(staff(r))
        .t(" was lovely but my mom ");
    b.rel(p)
        .t(" waited 3 hours in bed ")
        .l(&format!("{}", r.range(1, 30)), Kind::Room);
    b.t(" on ")
        .newdate(r)
        .t(". please call me ")
        .phone(r, p.phone, Kind::Phone);
    b.t(" — ")
        .name(r, p)
        .t("\nQ: May we contact you? A: yes, ")
        .l(&p.email, Kind::Email);
    b.t("\nsubmitted from ").l(&ip(r), Kind::Ip).t(" via ");
    b.l(
        &format!(
            "https://survey.riverbend.example/r/{}?pid={}",
            r.letters(6),
            p.mrn
        ),
        Kind::Url,
    );
    b.t("\n");
}

fn multiling(r: &mut Rng, p: &Patient, b: &mut B) {
    let (y, m, d) = p.dob;
    match r.below(4) {
        0 => {
            b.t("Chào bác sĩ, tôi tên là ").name(r, p).t(", sinh ngày ");
            b.l(&format!("{d:02}/{m:02}/{y}"), Kind::Date)
                .t(". Số điện thoại của tôi là ");
            b.phone(r, p.phone, Kind::Phone)
                .t(". Tôi cần đổi lịch hẹn, cảm ơn.\n");
        }
        1 => {
            b.t("Magandang araw po. Ako po si ")
                .name(r, p)
                .t(", ipinanganak noong ");
            b.l(
                &format!(
                    "{} {d}, {y}",
                    [
                        "Enero",
                        "Pebrero",
                        "Marso",
                        "Abril",
                        "Mayo",
                        "Hunyo",
                        "Hulyo",
                        "Agosto",
                        "Setyembre",
                        "Oktubre",
                        "Nobyembre",
                        "Disyembre"
                    ][m as usize - 1]
                ),
                Kind::Date,
            );
            b.t(". Ang member ID ko ay ")
                .l(&p.member, Kind::HealthPlan)
                .t(". Salamat po!\n");
        }
        2 => {
            b.t("Olá, meu nome é ").name(r, p).t(", nasci em ");
            b.l(
                &format!(
                    "{d} de {} de {y}",
                    [
                        "janeiro",
                        "fevereiro",
                        "março",
                        "abril",
                        "maio",
                        "junho",
                        "julho",
                        "agosto",
                        "setembro",
                        "outubro",
                        "novembro",
                        "dezembro"
                    ][m as usize - 1]
                ),
                Kind::Date,
            );
            b.t(". Moro na ")
                .addr(p, ", ")
                .t(". Meu prontuário é ")
                .l(&p.mrn, Kind::Mrn)
                .t(".\n");
        }
        _ => {
            b.t("Bonjou, mwen rele ")
                .name(r, p)
                .t(". Dat nesans mwen se ");
            b.l(&format!("{d:02}/{m:02}/{y}"), Kind::Date)
                .t(". Rele m nan ");
            b.phone(r, p.phone, Kind::Phone)
                .t(" oswa ekri ")
                .l(&p.email, Kind::Email)
                .t(". Mèsi!\n");
        }
    }
    b.t("(auto-translated, routed to ").t(staff(r)).t(")\n");
}

fn markdown(r: &mut Rng, pats: &[&Patient], b: &mut B) {
    b.t("pasting today's list:\n\n| Patient | DOB | MRN | Phone | Room |\n|---|---|---|---|---|\n");
    for p in pats {
        b.t("| ")
            .name(r, p)
            .t(" | ")
            .date(r, p.dob)
            .t(" | ")
            .l(&p.mrn, Kind::Mrn)
            .t(" | ");
        b.phone(r, p.phone, Kind::Phone)
            .t(" | ")
            .l(&format!("{}", r.range(200, 520)), Kind::Room);
        b.t(" |\n");
    }
    b.t(&format!("\nall on {} unless noted, ping ", r.pick(DRUGS)))
        .t(staff(r))
        .t("\n");
}

fn slack(r: &mut Rng, p: &Patient, b: &mut B) {
    let s1 = staff(r);
    let s2 = staff(r);
    b.t(&format!(
        "#transfer-center  {s1}  9:41 AM\n@{s2} incoming from "
    ));
    // The town the patient comes from is geography below a state, like any city here.
    b.l("Joplin", Kind::Address).t(": ");
    b.name(r, p)
        .t(" 🚑 DOB ")
        .date(r, p.dob)
        .t(", MRN ")
        .l(&p.mrn, Kind::Mrn);
    b.t(&format!(
        "\n{s2}  9:43 AM\nk 👍 bed {} is free, sats {}% on 4L. wife ",
        r.pick(&["ready", "clean"]),
        r.range(86, 95)
    ));
    b.rel(p)
        .t(" called from ")
        .newphone(r, Kind::Phone)
        .t(" lol she's worried 😬\n");
    b.t(&format!("{s1}  9:45 AM\nthx!! pt's car (plate "));
    b.l(&plate(r), Kind::Vehicle)
        .t(") is in lot C fyi. chart: ");
    b.l(
        &format!("https://emr.riverbend.example/chart?mrn={}", p.mrn),
        Kind::Url,
    );
    b.t(" — remote login from ")
        .l(&ip(r), Kind::Ip)
        .t(" was me\n");
}

pub fn generate(seed: u64, n: usize) -> Set {
    let mut r = Rng(seed);
    let pats: Vec<Patient> = (0..(n / 2).max(30)).map(|_| Patient::new(&mut r)).collect();
    let mut docs = Vec::with_capacity(n);
    for i in 0..n {
        let family = FAMILIES[i % FAMILIES.len()];
        let p = &pats[r.below(pats.len())];
        let mut b = B {
            text: String::new(),
            labels: Vec::new(),
        };
        match family {
            "wound" => wound(&mut r, p, &mut b),
            "sleep" => sleep(&mut r, p, &mut b),
            "audiology" => audiology(&mut r, p, &mut b),
            "podiatry" => podiatry(&mut r, p, &mut b),
            "bariatric" => bariatric(&mut r, p, &mut b),
            "transplant" => transplant(&mut r, p, &mut b),
            "nicu" => nicu(&mut r, p, &mut b),
            "part2" => part2(&mut r, p, &mut b),
            "court" => court(&mut r, p, &mut b),
            "jail" => jail(&mut r, p, &mut b),
            "delivery" => delivery(&mut r, p, &mut b),
            "dur" => dur(&mut r, p, &mut b),
            "appeal" => appeal(&mut r, p, &mut b),
            "msn" => msn(&mut r, p, &mut b),
            "ambulance" => ambulance(&mut r, p, &mut b),
            "poa" => poa(&mut r, p, &mut b),
            "funeral" => funeral(&mut r, p, &mut b),
            "vxu" => vxu(&mut r, p, &mut b),
            "survey" => survey(&mut r, p, &mut b),
            "multiling" => multiling(&mut r, p, &mut b),
            "markdown" => {
                let k = r.range(2, 4) as usize;
                let rows: Vec<&Patient> = (0..k).map(|_| &pats[r.below(pats.len())]).collect();
                markdown(&mut r, &rows, &mut b)
            }
            _ => slack(&mut r, p, &mut b),
        }
        docs.push(Doc {
            family,
            text: b.text,
            labels: b.labels,
        });
    }
    let roster = pats
        .iter()
        .step_by(3)
        .flat_map(|p| [p.full(), format!("{} {}", p.rel_first, p.rel_last)])
        .collect();
    let keep = STAFF
        .iter()
        .chain(PRACTICE)
        .map(|s| s.to_string())
        .collect();
    Set { docs, roster, keep }
}
