//! The seventh blind evaluation set for the PHI redactor: a seeded generator of clinic text in
//! 25 families none of the earlier sets has, each document with byte-exact labels of every
//! identifier of a patient or their household. Written without reading the redactor's rules,
//! word lists or the other sets' generators; its pools are its own.
//!
//! Conventions: a person's name is one label when its parts stand together (particles and
//! hyphens included), one label per part when something else (a comma, a caret) splits them;
//! every phone and fax number and every day-precision date is labelled (month and year alone
//! are not); an age only from 90, by its number; a room or bed by its number; a street line
//! and a city are each an Address, the ZIP its own label. Staff, the practice, its sites and
//! payers are in the keep list and stay; so do codes (NPI, CPT, ICD-10, NDC, LOINC), lots,
//! order and invoice numbers, doses, vitals, times and relative dates.

use opsdesk::governance::redact::Kind;

use crate::redaction_harness::{Doc, Label, Set};

pub const FAMILIES: [&str; 25] = [
    "othome",
    "dermphoto",
    "allergy",
    "census",
    "recovery",
    "medicaid",
    "i693",
    "dotexam",
    "paramed",
    "medwatch",
    "poison",
    "advice",
    "opo",
    "transcr",
    "insurchat",
    "ticket",
    "eucsv",
    "cda",
    "pdftext",
    "autoreply",
    "obituary",
    "prayer",
    "iep",
    "caregiver",
    "europe2",
];

/// splitmix64: small, seeded, the same everywhere.
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
    fn pick<'a, T: ?Sized>(&mut self, xs: &'a [&'a T]) -> &'a T {
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
        const L: &[u8] = b"ABCDEFGHJKLMNPRSTUVWXYZ";
        (0..n).map(|_| char::from(L[self.below(L.len())])).collect()
    }
}

/// A document being written: plain text and labelled text appended in order.
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
}

// ---- pools ----

const GIVEN: &[&str] = &[
    "Siobhán",
    "Cathal",
    "Niamh",
    "Pádraig",
    "Aoife",
    "Ruairí",
    "Orla",
    "Keʻala",
    "Kaʻiulani",
    "Noelani",
    "Makoa",
    "Kanoa",
    "Yousef",
    "Mariam",
    "Tariq",
    "Hafsa",
    "Idris",
    "Rania",
    "Hope",
    "Bill",
    "Rose",
    "Sunny",
    "Summer",
    "Will",
    "Faith",
    "Dawn",
    "Grant",
    "Joy",
    "Pearl",
    "Wade",
    "Oluwaseun",
    "Chidinma",
    "Thandiwe",
    "Bongani",
    "Ingrid",
    "Sigrún",
    "Torbjørn",
    "Mehmet",
    "Elif",
    "Giuseppe",
    "Chiara",
    "Femke",
    "Joris",
    "Priyanka",
    "Arjun",
    "Wanjiru",
    "Baraka",
    "Zbyněk",
    "Anneliese",
    "Marisol",
    "Jean-Baptiste",
    "Mary-Kate",
    "Lorcan",
    "Tupac",
    "Xiomara",
    "Dagny",
    "Osvaldo",
    "Ruthanne",
    "Emeric",
    "Clementine",
    "Delphine",
    "Augustin",
    "Nkechi",
    "Tevita",
    "Mele",
    "Sione",
    "Inés",
    "Benedikt",
    "Lavinia",
    "Cosmo",
    "Winifred",
    "Ignatius",
];

const FAMILY: &[&str] = &[
    "O'Donoghue",
    "MacAuley",
    "McGillicuddy",
    "O'Shaughnessy",
    "Kealoha",
    "Kahananui",
    "Keʻalohilani",
    "Kaʻanapu",
    "de la Fuente",
    "van der Meulen",
    "bin Rashid",
    "ibn Hassan",
    "Al-Mansouri",
    "Okonkwo-Reyes",
    "Lindqvist",
    "Haugen",
    "Yıldırım",
    "Bianchi",
    "Esposito",
    "Verhoeven",
    "Mwangi",
    "Odhiambo",
    "Chaudhary",
    "Ramaswamy",
    "King",
    "Rich",
    "Summers",
    "Bishop",
    "Stone",
    "Winter",
    "Hope",
    "Ferreira-Lund",
    "Adeyemi-Clarke",
    "Fitzgerald-Ngata",
    "Tuilagi",
    "Fonoti",
    "Dvořák",
    "Szabó",
    "Thorsdottir",
    "Van Dusen",
    "du Plessis",
    "Le Roux",
    "Abernethy",
    "Quackenbush",
    "Ó Súilleabháin",
    "Delacroix-Baptiste",
    "Nakashima-Holt",
    "Oyelaran",
    "Brightwater",
    "Castellanos",
    "Zamorano",
    "Pettigrew",
    "Vanterpool",
    "Iwu",
];

/// Family-first names, written in that order.
const ASIAN: &[(&str, &str)] = &[
    ("Nguyen", "Thi Lan"),
    ("Park", "Ji-woo"),
    ("Tanaka", "Haruto"),
    ("Chen", "Xiuying"),
    ("Lim", "Boon Keng"),
    ("Takahashi", "Yuki"),
    ("Hoang", "Van Minh"),
    ("Watanabe", "Ren"),
    ("Choi", "Seo-yeon"),
    ("Zhou", "Jianguo"),
    ("Tran", "Bao Chau"),
    ("Yamamoto", "Aiko"),
];

/// People known by one name.
const MONONYM: &[&str] = &["Wairimu", "Sukarno", "Teuila", "Ashoka", "Mbali", "Kalani"];

const RELATIONS: &[&str] = &[
    "daughter",
    "son",
    "wife",
    "husband",
    "granddaughter",
    "nephew",
    "niece",
    "partner",
    "sister",
    "brother",
    "stepmother",
    "foster dad",
];

const STREETS: &[&str] = &[
    "Kalanianaʻole Hwy",
    "Quarry Hollow Rd",
    "Bramblewood Ct",
    "Tamarack Loop",
    "Old Ferry Landing",
    "Cobblestone Mews",
    "Larkspur Terrace",
    "Sandpiper Bend",
    "Foundry St",
    "Wickerbasket Ln",
    "Tidewater Pkwy",
    "Huckleberry Trl",
    "Prospect Ridge Dr",
    "Kiawe Pl",
    "Mariner's Row",
    "Chestnut Hollow Cir",
];

const UNITS: &[&str] = &["Apt 4C", "Unit 12", "#207", "Lot 31", "Suite 3", "Trlr 9"];

const CITIES: &[(&str, &str)] = &[
    ("Waimānalo", "HI"),
    ("Presque Isle", "ME"),
    ("Lewistown", "MT"),
    ("Decorah", "IA"),
    ("Coos Bay", "OR"),
    ("Brunswick", "GA"),
    ("Rhinelander", "WI"),
    ("Elizabeth City", "NC"),
    ("Durango", "CO"),
    ("Keene", "NH"),
    ("Hilo", "HI"),
    ("Marquette", "MI"),
    ("Truth or Consequences", "NM"),
    ("Bemidji", "MN"),
];

const AREAS: &[&str] = &[
    "808", "207", "406", "563", "541", "912", "715", "252", "970", "603", "906", "575",
];

const MAIL_DOMAINS: &[&str] = &[
    "kilnmail.com",
    "tidepool.net",
    "lanternpost.org",
    "ohanamail.com",
    "birchbox-mail.net",
    "quillnet.io",
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

/// The practice, its staff, sites and payers: the keep list.
const STAFF: &[&str] = &[
    "Marguerite Okwuosa",
    "Theodore Blanchflower",
    "Ines Vasquez-Moreau",
    "Rashida Quarles",
    "Henrik Solvang",
    "Priscilla Duquesne",
    "Anselm Mbeki",
    "Corliss Vantreese",
    "Ottoline Farquhar",
    "Desmond Achterberg",
];

const ORGS: &[&str] = &[
    "Harborlight Community Health",
    "Ridgeback Family Clinic",
    "Kilauea Valley Medical Group",
    "Bluewater Mutual",
    "Cascadia Senior Care",
    "Northstar Poison Center",
    "Lifeline Donor Network",
    "Pinecrest Behavioral Hospital",
];

// ---- the people of one document ----

struct Person {
    given: String,
    family: String,
    /// Written family first (East Asian order).
    family_first: bool,
    mononym: bool,
}

impl Person {
    fn new(r: &mut Rng) -> Person {
        let roll = r.below(100);
        if roll < 14 {
            let (f, g) = ASIAN[r.below(ASIAN.len())];
            Person {
                given: g.into(),
                family: f.into(),
                family_first: true,
                mononym: false,
            }
        } else if roll < 18 {
            Person {
                given: r.pick(MONONYM).into(),
                family: String::new(),
                family_first: false,
                mononym: true,
            }
        } else {
            Person {
                given: r.pick(GIVEN).into(),
                family: r.pick(FAMILY).into(),
                family_first: false,
                mononym: false,
            }
        }
    }
    fn full(&self) -> String {
        if self.mononym {
            self.given.clone()
        } else if self.family_first {
            format!("{} {}", self.family, self.given)
        } else {
            format!("{} {}", self.given, self.family)
        }
    }
    /// The name a friend or a chat would use.
    fn short(&self) -> &str {
        &self.given
    }
    fn surname(&self) -> &str {
        if self.mononym {
            &self.given
        } else {
            &self.family
        }
    }
    /// Writes the name in one of its forms, labelling each part that stands alone.
    fn write(&self, r: &mut Rng, b: &mut B) {
        if self.mononym {
            b.l(&self.given, Kind::Person);
            return;
        }
        match r.below(10) {
            0 | 1 => {
                b.l(&self.family.to_uppercase(), Kind::Person)
                    .t(", ")
                    .l(&self.given.to_uppercase(), Kind::Person);
            }
            2 => {
                b.l(&self.full().to_lowercase(), Kind::Person);
            }
            3 => {
                b.l(&self.family, Kind::Person)
                    .t(", ")
                    .l(&self.given, Kind::Person);
            }
            4 if !self.family_first => {
                let initial = self.given.chars().next().unwrap();
                b.l(&format!("{initial}. {}", self.family), Kind::Person);
            }
            _ => {
                b.l(&self.full(), Kind::Person);
            }
        }
    }
}

#[derive(Clone, Copy)]
struct Day {
    y: u32,
    m: u32,
    d: u32,
}

impl Day {
    fn new(r: &mut Rng, lo: u32, hi: u32) -> Day {
        Day {
            y: r.range(lo, hi),
            m: r.range(1, 12),
            d: r.range(1, 28),
        }
    }
    fn month(&self) -> &'static str {
        MONTHS[self.m as usize - 1]
    }
    fn iso(&self) -> String {
        format!("{}-{:02}-{:02}", self.y, self.m, self.d)
    }
    fn us(&self) -> String {
        format!("{:02}/{:02}/{}", self.m, self.d, self.y)
    }
    fn eu(&self) -> String {
        format!("{:02}.{:02}.{}", self.d, self.m, self.y)
    }
    fn compact(&self) -> String {
        format!("{}{:02}{:02}", self.y, self.m, self.d)
    }
    /// Any of the ways an American clinic writes a day.
    fn any(&self, r: &mut Rng) -> String {
        let mon = self.month();
        match r.below(9) {
            0 => self.us(),
            1 => self.iso(),
            2 => format!("{} {}, {}", mon, self.d, self.y),
            3 => format!("{} {} {}", self.d, &mon[..3], self.y),
            4 => format!("{}/{}/{:02}", self.m, self.d, self.y % 100),
            5 => format!("{:02}-{}-{}", self.d, &mon[..3].to_uppercase(), self.y),
            6 => format!("{}. {}, {}", &mon[..3], self.d, self.y),
            7 => format!("{}-{}-{}", self.m, self.d, self.y),
            _ => format!("{} {}{}, {}", mon, self.d, ordinal(self.d), self.y),
        }
    }
}

fn ordinal(d: u32) -> &'static str {
    match d {
        1 | 21 | 31 => "st",
        2 | 22 => "nd",
        3 | 23 => "rd",
        _ => "th",
    }
}

fn phone(r: &mut Rng) -> String {
    let a = r.pick(AREAS);
    let x = r.range(221, 989);
    let n = r.range(1000, 9999);
    match r.below(7) {
        0 => format!("({a}) {x}-{n}"),
        1 => format!("{a}.{x}.{n}"),
        2 => format!("+1 {a} {x} {n}"),
        3 => format!("{a}-{x}-{n}"),
        4 => format!("{a}{x}{n}"),
        5 => format!("1-{a}-{x}-{n}"),
        _ => format!("({a}){x}-{n}"),
    }
}

fn email(r: &mut Rng, p: &Person) -> String {
    let clean = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_ascii_alphabetic())
            .collect::<String>()
            .to_lowercase()
    };
    let g = clean(&p.given);
    let f = clean(p.surname());
    let dom = r.pick(MAIL_DOMAINS);
    match r.below(4) {
        0 => format!("{g}.{f}@{dom}"),
        1 => format!("{}{f}{}@{dom}", &g[..1.min(g.len())], r.range(10, 99)),
        2 => format!("{f}_{g}@{dom}"),
        _ => format!("{g}{}@{dom}", r.range(1950, 2011)),
    }
}

struct Addr {
    street: String,
    city: &'static str,
    state: &'static str,
    zip: String,
}

fn addr(r: &mut Rng) -> Addr {
    let mut street = format!("{} {}", r.range(3, 9899), r.pick(STREETS));
    if r.chance(30) {
        street = format!("{street} {}", r.pick(UNITS));
    }
    let (city, state) = CITIES[r.below(CITIES.len())];
    let mut zip = format!("{:05}", r.range(1001, 99_899));
    if r.chance(25) {
        zip = format!("{zip}-{:04}", r.range(1, 9999));
    }
    Addr {
        street,
        city,
        state,
        zip,
    }
}

/// `street, City, ST zip` on one line.
fn write_addr(b: &mut B, a: &Addr) {
    b.l(&a.street, Kind::Address)
        .t(", ")
        .l(a.city, Kind::Address)
        .t(&format!(", {} ", a.state))
        .l(&a.zip, Kind::Zip);
}

fn ssn(r: &mut Rng) -> String {
    format!(
        "{}-{:02}-{:04}",
        r.range(101, 665),
        r.range(10, 99),
        r.range(1000, 9999)
    )
}

fn luhn_card(r: &mut Rng) -> String {
    let mut ds: Vec<u32> = vec![4];
    for _ in 0..14 {
        ds.push(r.range(0, 9));
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
    let s: String = ds.iter().map(|d| char::from(b'0' + *d as u8)).collect();
    format!("{} {} {} {}", &s[0..4], &s[4..8], &s[8..12], &s[12..16])
}

fn mrn(r: &mut Rng) -> String {
    match r.below(4) {
        0 => r.digits(8),
        1 => format!("HL{}", r.digits(7)),
        2 => format!("{}-{}", r.digits(3), r.digits(5)),
        _ => r.digits(9),
    }
}

fn member(r: &mut Rng) -> String {
    match r.below(3) {
        0 => format!("{}{}", r.letters(3), r.digits(9)),
        1 => format!("W{}-{}", r.digits(6), r.digits(2)),
        _ => format!("{}{}", r.digits(2), r.letters(1) + &r.digits(8)),
    }
}

fn staff(r: &mut Rng) -> &'static str {
    r.pick(STAFF)
}

fn staff_last(r: &mut Rng) -> &'static str {
    r.pick(STAFF).rsplit(' ').next().unwrap()
}

fn time(r: &mut Rng) -> String {
    format!("{:02}:{:02}", r.range(6, 22), r.range(0, 59))
}

fn visit(r: &mut Rng) -> Day {
    Day::new(r, 2025, 2026)
}

/// An adult's or a child's date of birth.
fn dob(r: &mut Rng) -> Day {
    Day::new(r, 1931, 2019)
}

fn adult_dob(r: &mut Rng) -> Day {
    Day::new(r, 1938, 2004)
}

fn old_dob(r: &mut Rng) -> (Day, u32) {
    let age = r.range(90, 104);
    (
        Day {
            y: 2026 - age,
            m: r.range(1, 12),
            d: r.range(1, 28),
        },
        age,
    )
}

// ---- families ----

fn othome_a(r: &mut Rng, p: &Person, b: &mut B) {
    let a = addr(r);
    b.t("HOME SAFETY EVALUATION — Occupational Therapy\nClient: ");
    p.write(r, b);
    b.t("   DOB: ").l(&dob(r).any(r), Kind::Date);
    b.t("\nVisit date: ").l(&visit(r).any(r), Kind::Date);
    b.t(&format!(
        "  Arrived {}  Therapist: {}, OTR/L\n",
        time(r),
        staff(r)
    ));
    b.t("Residence: ");
    write_addr(b, &a);
    b.t(&format!(
        "\nEntry: {} steps, no rail on left. Bathroom: tub/shower combo, recommend tub transfer bench (HCPCS E0247) and grab bar 24\".\n",
        r.range(2, 6)
    ));
    if r.chance(60) {
        let rel = Person::new(r);
        b.t(&format!("Lives with {} ", r.pick(RELATIONS)));
        b.l(&rel.full(), Kind::Person);
        b.t(", reachable at ").l(&phone(r), Kind::Phone).t(".\n");
    }
    b.t(&format!(
        "Timed Up and Go {}.{} s; BP 132/78. CPT 97168 billed. Follow-up in 2 weeks.\n",
        r.range(11, 24),
        r.range(0, 9)
    ));
}

fn dermphoto_a(r: &mut Rng, p: &Person, b: &mut B) {
    b.t(
        "Ridgeback Family Clinic — Dermatology\nCONSENT FOR CLINICAL PHOTOGRAPHY\n\nPatient name: ",
    );
    b.l(&p.full(), Kind::Person);
    b.t("\nDate of birth: ").l(&dob(r).any(r), Kind::Date);
    b.t("   Chart #: ").l(&mrn(r), Kind::Mrn);
    b.t(&format!(
        "\nSite(s): {} — lesion tracking (ICD-10 D48.5). Images stored as DERM_{}_{}.jpg in the clinical archive only.\n",
        r.pick(&["left scapula", "right shin", "scalp vertex", "dorsal hand"]),
        r.digits(4),
        r.digits(2)
    ));
    b.t("I agree to the use of photographs for my care. Signed: ");
    b.l(&p.full(), Kind::Person);
    b.t("   Date: ").l(&visit(r).us(), Kind::Date);
    if r.chance(50) {
        let g = Person::new(r);
        b.t("\nParent/guardian (if minor): ");
        b.l(&g.full(), Kind::Person);
        b.t(" — cell ").l(&phone(r), Kind::Phone);
    }
    b.t(&format!("\nWitness: {}, MA\n", staff(r)));
}

fn allergy_a(r: &mut Rng, p: &Person, b: &mut B) {
    b.t("ALLERGEN IMMUNOTHERAPY — INJECTION LOG\nPt: ");
    p.write(r, b);
    b.t("  | MRN ").l(&mrn(r), Kind::Mrn);
    b.t("  | DOB ").l(&dob(r).us(), Kind::Date);
    b.t(&format!(
        "\nVial set: {} / Lot {}{}  exp 09/2027\n",
        r.pick(&["Trees+Grass", "Dust mite/Cat", "Ragweed mix", "Molds"]),
        r.letters(2),
        r.digits(5)
    ));
    b.t("date       | arm | dose  | wheal | by\n");
    for _ in 0..r.range(3, 5) {
        b.l(&visit(r).us(), Kind::Date);
        b.t(&format!(
            " | {}   | 0.{} mL | {} mm  | {}\n",
            r.pick(&["L", "R"]),
            r.range(5, 50),
            r.range(0, 15),
            staff_last(r)
        ));
    }
    b.t("Observed 30 min post-injection, no systemic reaction. Epinephrine 0.3 mg auto-injector on file.\n");
}

fn census_a(r: &mut Rng, p: &Person, b: &mut B) {
    b.t(&format!(
        "Pinecrest Behavioral Hospital — Unit {} census {}\nBED  PATIENT                 LEGAL   OBS    ADMIT\n",
        r.pick(&["2 West", "Adolescent", "Geri-Psych", "3 North"]),
        time(r)
    ));
    for i in 0..r.range(3, 5) {
        let other = Person::new(r);
        let q = if i == 1 { p } else { &other };
        b.l(
            &format!("{}{}", r.range(201, 248), r.pick(&["A", "B", ""])),
            Kind::Room,
        );
        b.t("  ");
        q.write(r, b);
        b.t(&format!(
            "  {}  {}  ",
            r.pick(&["5150", "Vol", "72h", "CONS", "Invol"]),
            r.pick(&["q15", "1:1", "q30", "line-of-sight"])
        ));
        let d = visit(r);
        b.l(&format!("{}/{}", d.m, d.d), Kind::Date);
        b.t("\n");
    }
    b.t(&format!(
        "Charge RN: {}. Milieu: quiet, 2 PRNs given (lorazepam 1 mg PO).\n",
        staff(r)
    ));
}

fn recovery_a(r: &mut Rng, p: &Person, b: &mut B) {
    let f = Person::new(r);
    let g = p.short().to_lowercase();
    b.t(&format!("[{}] ", time(r)))
        .l(&f.short().to_lowercase(), Kind::Person)
        .t(": morning fam ☀️ day 90 for ")
        .l(&g, Kind::Person)
        .t(" today!! 🎉🎉\n");
    b.t(&format!("[{}] ", time(r)))
        .l(&g, Kind::Person)
        .t(": lol thank u all 🙏 couldnt of done it w/o my sponsor\n");
    b.t(&format!("[{}] ", time(r)))
        .l(&f.short().to_lowercase(), Kind::Person)
        .t(": meeting moved to the church basement, ");
    b.l(&addr(r).street.to_lowercase(), Kind::Address);
    b.t(" 7pm\n");
    b.t(&format!("[{}] ", time(r)));
    b.l(&g, Kind::Person);
    b.t(": if anyone needs a ride text me ");
    b.l(&phone(r), Kind::Phone);
    b.t(" 🚗\n");
    if r.chance(60) {
        b.t(&format!("[{}] big ", time(r)))
            .l(&p.surname().to_lowercase(), Kind::Person)
            .t(": my birthday is ");
        let d = dob(r);
        b.l(&format!("{} {}", d.month().to_lowercase(), d.d), Kind::Date);
        b.t(" btw cake is on me 🎂 sober 1 yr\n");
    }
}

fn medicaid(r: &mut Rng, p: &Person, b: &mut B) {
    let a = addr(r);
    b.t("STATE DEPARTMENT OF HUMAN SERVICES\nMedicaid Renewal (Redetermination) Notice\n\n");
    b.t("Notice date: ").l(&visit(r).any(r), Kind::Date).t("\n");
    b.l(&p.full().to_uppercase(), Kind::Person).t("\n");
    b.l(&a.street.to_uppercase(), Kind::Address).t("\n");
    b.l(&a.city.to_uppercase(), Kind::Address)
        .t(&format!(" {}  ", a.state))
        .l(&a.zip, Kind::Zip)
        .t("\n\nCase number: ")
        .l(&format!("{}-{}", r.digits(4), r.digits(6)), Kind::Account)
        .t("   Medicaid ID: ")
        .l(&member(r), Kind::HealthPlan)
        .t("\n\nDear ")
        .l(&p.full(), Kind::Person)
        .t(",\nIt is time to renew your health coverage. Return the enclosed form by ")
        .l(&visit(r).any(r), Kind::Date)
        .t(". Household members on this case:\n");
    for _ in 0..r.range(1, 3) {
        let h = Person::new(r);
        b.t("  - ").l(&h.full(), Kind::Person).t(", born ");
        b.l(&dob(r).us(), Kind::Date).t("\n");
    }
    if r.chance(50) {
        b.t("SSN on file ending in the last four; full number for verification: ")
            .l(&ssn(r), Kind::Ssn)
            .t("\n");
    }
    // Every phone number is labelled, the agency's too (the sets' convention).
    b.t("Questions? Call ")
        .l("1-800-555-0199", Kind::Phone)
        .t(" (TTY 711), Monday to Friday, 8 am to 5 pm.\n");
}

fn i693(r: &mut Rng, p: &Person, b: &mut B) {
    b.t("Form I-693 — Report of Immigration Medical Examination (worksheet)\n");
    b.t("Part 1. 1.a Family Name: ")
        .l(&p.surname().to_uppercase(), Kind::Person);
    if !p.mononym {
        b.t("  1.b Given Name: ")
            .l(&p.given.to_uppercase(), Kind::Person);
    }
    b.t("\n3. Date of Birth (mm/dd/yyyy): ")
        .l(&adult_dob(r).us(), Kind::Date);
    b.t(&format!(
        "\n4. Country of birth: {}\n5. Passport No.: ",
        r.pick(&["Kenya", "Philippines", "Turkey", "Vietnam", "Peru", "Fiji"])
    ))
    .l(&format!("{}{}", r.letters(1), r.digits(8)), Kind::License);
    let a = addr(r);
    b.t("\n6. U.S. mailing address: ");
    write_addr(b, &a);
    b.t("\n7. Daytime phone: ").l(&phone(r), Kind::Phone);
    b.t("\nPart 4. Civil surgeon exam date: ")
        .l(&visit(r).us(), Kind::Date);
    b.t(&format!(
        "\nIGRA (QuantiFERON, LOINC 71773-6): negative. Syphilis RPR: non-reactive. MMR, Tdap given (CVX 03, 115). Civil surgeon: {} MD, NPI 1{}\n",
        staff(r),
        r.digits(9)
    ));
}

fn dotexam(r: &mut Rng, p: &Person, b: &mut B) {
    let a = addr(r);
    b.t("MEDICAL EXAMINATION REPORT FOR COMMERCIAL DRIVER FITNESS DETERMINATION (MCSA-5875)\n");
    b.t("Driver: ");
    p.write(r, b);
    b.t("\nDOB: ").l(&adult_dob(r).us(), Kind::Date);
    b.t(&format!("  Age: {}\n", r.range(24, 66)));
    b.t("Street: ");
    b.l(&a.street, Kind::Address)
        .t("  City: ")
        .l(a.city, Kind::Address);
    b.t(&format!("  State: {}  ZIP: ", a.state))
        .l(&a.zip, Kind::Zip);
    b.t(&format!("\nDriver license #: {}-", a.state))
        .l(&format!("{}{}", r.letters(1), r.digits(7)), Kind::License)
        .t(&format!("  Class A CDL, issued in {}\n", a.state));
    b.t("Cell: ").l(&phone(r), Kind::Phone);
    b.t("  Email: ").l(&email(r, p), Kind::Email);
    b.t(&format!(
        "\nVision 20/{} OU, hearing whisper test pass at 5 ft. BP {}/{}. Urinalysis SG 1.015.\n",
        r.pick(&["20", "25", "30"]),
        r.range(118, 158),
        r.range(70, 96)
    ));
    if r.chance(60) {
        b.t("Unit driven: tractor plate ")
            .l(&format!("{} {}", r.letters(3), r.digits(4)), Kind::Vehicle)
            .t(", VIN ")
            .l(
                &format!("1XK{}{}", r.letters(5), r.digits(9)),
                Kind::Vehicle,
            )
            .t("\n");
    }
    b.t(&format!(
        "Certified 2 years. Medical examiner: {}, National Registry no. {}\n",
        staff(r),
        r.digits(10)
    ));
}

fn paramed(r: &mut Rng, p: &Person, b: &mut B) {
    // The exam ID and the specimen kit number are the applicant's own; the order number is
    // the vendor's.
    b.t("PARAMEDICAL EXAMINATION — Life Insurance Application\nExam ID ");
    b.l(&format!("PX-{}", r.digits(6)), Kind::Account);
    b.t(&format!(" (order #{})\nProposed insured: ", r.digits(7)));
    b.l(&p.full(), Kind::Person);
    b.t("   SSN: ").l(&ssn(r), Kind::Ssn);
    b.t("\nDOB: ").l(&adult_dob(r).any(r), Kind::Date);
    b.t("  Driver's licence: ")
        .l(&format!("{}{}", r.letters(2), r.digits(6)), Kind::License);
    b.t(&format!(
        "\nHeight 5'{}\", weight {} lb, pulse {}, BP {}/{} x3. Blood and urine collected {}, kit ",
        r.range(1, 11),
        r.range(120, 260),
        r.range(55, 95),
        r.range(110, 150),
        r.range(65, 95),
        time(r),
    ));
    b.l(&r.digits(8), Kind::Account).t(".\n");
    b.t("Beneficiary: ");
    let ben = Person::new(r);
    b.l(&ben.full(), Kind::Person)
        .t(&format!(" ({})", r.pick(RELATIONS)));
    b.t("\nExam location: applicant's home, ");
    write_addr(b, &addr(r));
    b.t("\nBest phone for results: ").l(&phone(r), Kind::Phone);
    b.t(&format!("\nExaminer: {}\n", staff(r)));
}

fn medwatch_a(r: &mut Rng, p: &Person, b: &mut B) {
    let initials: String = p
        .full()
        .split([' ', '-'])
        .filter_map(|w| w.chars().next())
        .filter(|c| c.is_alphabetic())
        .collect();
    b.t("MEDWATCH FORM FDA 3500 — voluntary report (draft)\nA1. Patient identifier: ");
    b.l(&initials, Kind::Person);
    b.t(&format!(
        "   A2. Age: {} yr  A3. Sex: {}\n",
        r.range(18, 84),
        r.pick(&["F", "M"])
    ));
    b.t("B3. Date of event: ").l(&visit(r).us(), Kind::Date);
    b.t("   B4. Date of this report: ")
        .l(&visit(r).us(), Kind::Date);
    b.t(&format!(
        "\nB5. Describe event: patient ({}) developed angioedema 2 h after dose of lisinopril 10 mg; NDC 68180-0981-01, lot {}{}.\n",
        p.surname(),
        r.letters(1),
        r.digits(6)
    ));
    // The patient's surname in the narrative is the patient's: label it.
    let s = p.surname().to_string();
    let at = b.text.rfind(&format!("({s})")).unwrap() + 1;
    b.labels.push(Label {
        start: at,
        end: at + s.len(),
        kind: Kind::Person,
    });
    b.labels.sort_by_key(|l| l.start);
    if r.chance(50) {
        b.t("D. Suspect device: infusion pump, serial no. ")
            .l(
                &format!("{}{}-{}", r.letters(2), r.digits(5), r.letters(1)),
                Kind::Device,
            )
            .t(&format!(
                ", model {}\n",
                r.pick(&["Sapphire 2", "CADD-Solis", "Medley 8100"])
            ));
    }
    b.t("G. Reporter: ");
    b.t(&format!(
        "{}, PharmD, Harborlight Community Health\n",
        staff(r)
    ));
    b.t("Record no. at site: ").l(&mrn(r), Kind::Mrn).t("\n");
}

fn poison_a(r: &mut Rng, p: &Person, b: &mut B) {
    b.t(&format!(
        "Northstar Poison Center — call log {}  Case ",
        time(r)
    ));
    b.l(
        &format!("NPC-{}-{}", r.range(25, 26), r.digits(6)),
        Kind::Account,
    );
    b.t(&format!(
        "\nCaller: {} ",
        r.pick(&["mother", "grandmother", "father", "babysitter", "self"])
    ));
    let c = Person::new(r);
    b.l(&c.full(), Kind::Person)
        .t(", callback ")
        .l(&phone(r), Kind::Phone);
    b.t("\nPatient: ");
    b.l(p.short(), Kind::Person);
    b.t(&format!(
        ", {} y/o, {} kg. Substance: {} — est. {} tabs ingested ~{} ago.\n",
        r.range(1, 6),
        r.range(9, 22),
        r.pick(&[
            "acetaminophen 500 mg",
            "grandma's amlodipine 5 mg",
            "laundry pod",
            "iron 65 mg"
        ]),
        r.range(1, 8),
        r.pick(&["20 min", "1 h", "45 min"])
    ));
    b.t("Location: home, ");
    let a = addr(r);
    b.l(&a.street, Kind::Address)
        .t(", ")
        .l(a.city, Kind::Address);
    b.t(".\nRec: ED referral, call back in 1 h. Follow-up ");
    b.l(&visit(r).any(r), Kind::Date);
    b.t(&format!(" — asymptomatic. SPI: {}\n", staff(r)));
}

fn advice_a(r: &mut Rng, p: &Person, b: &mut B) {
    b.t("NURSE ADVICE LINE — TELEPHONE TRIAGE\nCall received ");
    b.l(&visit(r).any(r), Kind::Date)
        .t(&format!(" {}\n", time(r)));
    b.t("Caller name: ");
    p.write(r, b);
    b.t("  Relationship: self\nDOB: ")
        .l(&dob(r).any(r), Kind::Date);
    b.t("  Member #: ").l(&member(r), Kind::HealthPlan);
    b.t("\nCall-back: ").l(&phone(r), Kind::Phone);
    b.t(&format!(
        "\nChief complaint: {}. Protocol: Schmitt-Thompson \"{}\". Disposition: {}.\n",
        r.pick(&[
            "fever 39.2 C x2 days",
            "chest tightness on exertion",
            "rash after new soap",
            "vomiting since last night"
        ]),
        r.pick(&[
            "Fever - Adult",
            "Chest Pain",
            "Rash - Widespread",
            "Vomiting"
        ]),
        r.pick(&["see within 24 h", "ED now", "home care", "call 911"])
    ));
    b.t(&format!(
        "RN: {} — care advice given, caller verbalized understanding.\n",
        staff(r)
    ));
}

fn opo(r: &mut Rng, p: &Person, b: &mut B) {
    b.t("Lifeline Donor Network — REFERRAL\nReferral #");
    b.l(&format!("LDN{}", r.digits(7)), Kind::Account);
    b.t(&format!(
        " received {} from Kilauea Valley Medical Group ICU, bed ",
        time(r)
    ));
    b.l(&format!("{}", r.range(1, 24)), Kind::Room);
    b.t("\nPatient: ");
    p.write(r, b);
    b.t("   MRN: ").l(&mrn(r), Kind::Mrn);
    b.t("   DOB: ").l(&dob(r).us(), Kind::Date);
    b.t(&format!(
        "\nGCS 3, vent-dependent, no sedation x{} h. Trigger: GCS <= 5. ABO {}. Hospital NPI 1{}\n",
        r.range(6, 30),
        r.pick(&["O+", "A-", "B+", "AB+"]),
        r.digits(9)
    ));
    b.t("Next of kin: ");
    let k = Person::new(r);
    b.l(&k.full(), Kind::Person)
        .t(&format!(" ({}), ", r.pick(RELATIONS)));
    b.l(&phone(r), Kind::Phone);
    b.t("\nRegistry check: donor designation on state registry per licence ");
    b.l(&format!("{}{}", r.letters(1), r.digits(8)), Kind::License);
    b.t(&format!(". Coordinator on call: {}\n", staff(r)));
}

fn transcr(r: &mut Rng, p: &Person, b: &mut B) {
    let doc = staff_last(r);
    let mut ts = r.range(0, 30);
    let mut stamp = |r: &mut Rng| {
        ts += r.range(4, 40);
        format!("[00:{:02}:{:02}] ", ts / 60, ts % 60)
    };
    b.t(&format!(
        "JOB {} — dictation, speaker-tagged\n",
        r.digits(6)
    ));
    b.t(&stamp(r)).t(&format!(
        "DR. {}: this is Dr. {} seeing ",
        doc.to_uppercase(),
        doc
    ));
    b.l(&p.full().to_lowercase(), Kind::Person);
    b.t(", date of birth ");
    let d = dob(r);
    b.l(
        &format!(
            "{} {}{} {}",
            d.month().to_lowercase(),
            d.d,
            ordinal(d.d),
            d.y
        ),
        Kind::Date,
    );
    b.t(", medical record number ");
    // Read out digit by digit, as dictation is typed.
    let spoken: String = r.digits(7).chars().map(|c| format!("{c} ")).collect();
    b.l(spoken.trim_end(), Kind::Mrn);
    b.t("\n").t(&stamp(r)).t("PATIENT: it started on the ");
    let v = visit(r);
    b.l(
        &format!("{}{} of {}", v.d, ordinal(v.d), v.month()),
        Kind::Date,
    );
    b.t(", the pain in my knee\n");
    b.t(&stamp(r))
        .t("DR: okay. room ")
        .l(&format!("{}", r.range(3, 18)), Kind::Room)
        .t(", vitals stable, BP 128 over 76\n");
    if r.chance(60) {
        let w = Person::new(r);
        b.t(&stamp(r)).t("SPOUSE: I'm ");
        b.l(&w.full(), Kind::Person);
        b.t(", you can reach me at ")
            .l(&phone(r), Kind::Phone)
            .t("\n");
    }
    b.t(&stamp(r))
        .t("DR: plan, MRI left knee, CPT 73721, follow up in two weeks. end of dictation.\n");
}

fn insurchat_a(r: &mut Rng, p: &Person, b: &mut B) {
    let agent = staff(r).split(' ').next().unwrap();
    b.t("Bluewater Mutual — Chat transcript\n");
    b.t(&format!(
        "{} Agent {}: Hi, thanks for contacting Bluewater Mutual. Who am I speaking with?\n",
        time(r),
        agent
    ));
    b.t(&format!("{} Visitor: ", time(r)))
        .l(&p.full(), Kind::Person);
    b.t(", member id ").l(&member(r), Kind::HealthPlan).t("\n");
    b.t(&format!(
        "{} Agent {}: Thanks! Can you verify your date of birth?\n",
        time(r),
        agent
    ));
    b.t(&format!("{} Visitor: ", time(r)))
        .l(&dob(r).any(r), Kind::Date)
        .t("\n");
    b.t(&format!("{} Agent {}: Claim ", time(r), agent))
        .l(&r.digits(12), Kind::Account)
        .t(" for CPT 99214 on ")
        .l(&visit(r).us(), Kind::Date);
    b.t(" processed; you owe $40.00.\n");
    b.t(&format!("{} Visitor: ok charge my card ", time(r)));
    b.l(&luhn_card(r), Kind::Card);
    b.t(" exp 08/29\n");
    if r.chance(50) {
        b.t(&format!("{} Visitor: and send the receipt to ", time(r)))
            .l(&email(r, p), Kind::Email)
            .t("\n");
    }
    b.t(&format!(
        "{} Agent {}: Done, confirmation PAY-{}. Have a great day!\n",
        time(r),
        agent,
        r.digits(8)
    ));
}

fn ticket_a(r: &mut Rng, p: &Person, b: &mut B) {
    let n = r.range(1200, 9800);
    b.t(&format!(
        "OPS-{n}: Import fails on patient with apostrophe in name\nReporter: {} · Priority: High · Sprint 42\n\n",
        staff(r)
    ));
    b.t("Steps: run `importer --fixture tests/fixtures/patient.yaml` against staging ");
    b.l(
        &format!(
            "10.{}.{}.{}",
            r.range(0, 255),
            r.range(0, 255),
            r.range(1, 254)
        ),
        Kind::Ip,
    );
    b.t("\n\n```yaml\npatient:\n  name: \"");
    b.l(&p.full(), Kind::Person);
    b.t("\"\n  dob: ").l(&dob(r).iso(), Kind::Date);
    b.t("\n  mrn: \"").l(&mrn(r), Kind::Mrn);
    b.t("\"\n  phone: \"").l(&phone(r), Kind::Phone);
    b.t("\"\n  email: ").l(&email(r, p), Kind::Email);
    b.t("\n  icd10: [E11.9, I10]\n```\n\nLink: ");
    b.l(
        &format!(
            "https://ehr-staging.harborlight.example/chart/{}?tab=summary",
            r.digits(7)
        ),
        Kind::Url,
    );
    b.t(&format!(
        "\n\n— comment by {}: please scrub real data from fixtures, see OPS-{}.\n",
        staff(r),
        n - r.range(1, 90)
    ));
    if r.chance(50) {
        b.t("```toml\n[[guarantor]]\nname = \"");
        let g = Person::new(r);
        b.l(&g.full(), Kind::Person);
        b.t("\"\naccount = \"")
            .l(&format!("A{}", r.digits(8)), Kind::Account);
        b.t("\"\n```\n");
    }
}

fn eucsv_a(r: &mut Rng, p: &Person, b: &mut B) {
    b.t("pat_nr;nachname;vorname;geb_datum;aufnahme;station;bett;telefon\n");
    for i in 0..r.range(3, 5) {
        let other = Person::new(r);
        let q = if i == 0 { p } else { &other };
        b.l(&r.digits(8), Kind::Mrn).t(";");
        b.l(q.surname(), Kind::Person).t(";");
        if !q.mononym {
            b.l(&q.given, Kind::Person);
        }
        b.t(";");
        b.l(&dob(r).eu(), Kind::Date).t(";");
        let v = visit(r);
        b.l(&format!("{}.{}.{}", v.d, v.m, v.y % 100), Kind::Date)
            .t(";");
        b.t(&format!("{};", r.pick(&["K3", "ITS", "G2", "N1"])));
        b.l(&format!("{}", r.range(1, 40)), Kind::Room).t(";");
        b.l(
            &format!("+49 {} {}", r.range(30, 9999), r.digits(7)),
            Kind::Phone,
        );
        b.t("\n");
    }
    b.t(&format!(
        "# export {} by EHR batch, ICD-10-GM J18.9 filter, 1,5 mg/kg\n",
        time(r)
    ));
}

fn cda_a(r: &mut Rng, p: &Person, b: &mut B) {
    let a = addr(r);
    b.t("<recordTarget>\n <patientRole>\n  <id root=\"2.16.840.1.113883.19.5\" extension=\"");
    b.l(&mrn(r), Kind::Mrn);
    b.t("\"/>\n  <addr use=\"HP\"><streetAddressLine>");
    b.l(&a.street, Kind::Address);
    b.t("</streetAddressLine><city>").l(a.city, Kind::Address);
    b.t(&format!("</city><state>{}</state><postalCode>", a.state));
    b.l(&a.zip, Kind::Zip);
    b.t("</postalCode></addr>\n  <telecom use=\"MC\" value=\"tel:");
    b.l(&phone(r).replace(' ', "-"), Kind::Phone);
    b.t("\"/>\n  <telecom value=\"mailto:")
        .l(&email(r, p), Kind::Email);
    b.t("\"/>\n  <patient>\n   <name><given>");
    b.l(&p.given, Kind::Person);
    b.t("</given>");
    if !p.mononym {
        b.t("<family>").l(&p.family, Kind::Person).t("</family>");
    }
    b.t("</name>\n   <administrativeGenderCode code=\"F\" codeSystem=\"2.16.840.1.113883.5.1\"/>\n   <birthTime value=\"");
    b.l(&dob(r).compact(), Kind::Date);
    b.t("\"/>\n  </patient>\n </patientRole>\n</recordTarget>\n<effectiveTime value=\"");
    let v = visit(r);
    b.l(&v.compact(), Kind::Date);
    b.t(&format!(
        "{:02}{:02}\"/>\n<code code=\"34133-9\" codeSystem=\"2.16.840.1.113883.6.1\"/>\n",
        r.range(8, 17),
        r.range(0, 59)
    ));
}

fn pdftext(r: &mut Rng, p: &Person, b: &mut B) {
    // A two-column page flattened by a PDF-to-text tool: hyphenated breaks, a running header.
    let d = dob(r);
    let name = p.full();
    b.t(&format!(
        "Harborlight Community Health          Page {} of {}\n",
        r.range(1, 3),
        r.range(3, 6)
    ));
    b.t("Discharge Instruc-\ntions                                 Patient: ");
    b.l(&name, Kind::Person);
    b.t("\nfor home care after                    DOB: ")
        .l(&d.us(), Kind::Date);
    b.t("\nyour procedure on                      Acct: ");
    b.l(&r.digits(10), Kind::Account);
    b.t("\n");
    b.l(&visit(r).any(r), Kind::Date);
    b.t(". Keep the dress-                    Attending: ");
    b.t(&format!("{}\n", staff(r)));
    b.t("ing dry for 48 hours.                 Phone: ")
        .l(&phone(r), Kind::Phone);
    b.t("\n");
    if !p.mononym && p.family.len() > 5 && !p.family.contains(' ') && p.family.is_ascii() {
        let (x, y) = p.family.split_at(p.family.len() / 2);
        b.t("Call if fever > 38.5 C. Pt. ");
        b.l(&format!("{x}-\n{y}"), Kind::Person);
        b.t(" understands.\n");
    }
    b.t(&format!(
        "---- {} · printed {} ----\n",
        name_header(r),
        time(r)
    ));
}

fn name_header(r: &mut Rng) -> &'static str {
    r.pick(&["CONFIDENTIAL", "Patient Copy", "DRAFT", "Kopie"])
}

fn autoreply(r: &mut Rng, p: &Person, b: &mut B) {
    let from = email(r, p);
    if r.chance(50) {
        b.t("From: Mail Delivery Subsystem <mailer-daemon@harborlight.example>\nSubject: Undeliverable: my test results\n\n");
        b.t("Delivery to the following recipient failed permanently:\n    ");
        b.l(&from, Kind::Email);
        b.t("\nRemote server 550 5.1.1 user unknown (");
        b.l(
            &format!(
                "{}.{}.{}.{}",
                r.range(23, 212),
                r.range(0, 255),
                r.range(0, 255),
                r.range(1, 254)
            ),
            Kind::Ip,
        );
        b.t(")\n\n----- Original message -----\nTo: ");
        b.l(&from, Kind::Email);
    } else {
        b.t("Subject: Automatic reply: appointment for ");
        b.l(&p.full(), Kind::Person);
        b.t(&format!(
            "\n\nI am out of the office until Monday with limited access to email. For urgent matters contact {} at the front desk.\n\n-----Original Message-----\nFrom: ",
            staff(r)
        ));
        b.l(&from, Kind::Email);
    }
    b.t("\nDate: ").l(&visit(r).any(r), Kind::Date);
    b.t(&format!(" {}\n\n> Hi, this is ", time(r)));
    b.l(&p.full(), Kind::Person);
    b.t(", DOB ").l(&dob(r).any(r), Kind::Date);
    b.t(". Can you fax my results to ").l(&phone(r), Kind::Fax);
    b.t("?\n> My chart number is ").l(&mrn(r), Kind::Mrn);
    b.t(".\n> Thanks\n");
}

fn obituary_a(r: &mut Rng, p: &Person, b: &mut B) {
    let (d, age) = old_dob(r);
    let a = addr(r);
    b.l(&p.full(), Kind::Person);
    b.t(", ").l(&format!("{age}"), Kind::Age);
    b.t(", of ");
    b.l(a.city, Kind::Address);
    b.t(", passed away peacefully on ");
    b.l(&visit(r).any(r), Kind::Date);
    b.t(" at Cascadia Senior Care. Born ");
    b.l(&format!("{} {}, {}", d.month(), d.d, d.y), Kind::Date);
    b.t(", she is survived by her ");
    let k = Person::new(r);
    b.t(&format!("{} ", r.pick(RELATIONS)));
    b.l(&k.full(), Kind::Person);
    b.t(" and great-grandchildren. A celebration of life will be held at ");
    b.l(&a.street, Kind::Address);
    b.t(" next Saturday at 2 pm.\n\nCondolence note:\nDear ");
    b.l(k.short(), Kind::Person);
    b.t(&format!(
        ", all of us at Cascadia Senior Care are so sorry. Your mother was {} years young and full of stories. — {}\n",
        age, staff(r)
    ));
    // the age repeated in the note
    let at = b.text.rfind(&format!("was {age} years")).unwrap() + 4;
    b.labels.push(Label {
        start: at,
        end: at + format!("{age}").len(),
        kind: Kind::Age,
    });
    b.labels.sort_by_key(|l| l.start);
}

fn prayer(r: &mut Rng, p: &Person, b: &mut B) {
    b.t("St. Brendan's Parish — Prayer List for this week\nPlease keep in your prayers:\n");
    for i in 0..r.range(3, 5) {
        let other = Person::new(r);
        let q = if i == 1 { p } else { &other };
        b.t("• ");
        if i == 0 {
            let (_, age) = old_dob(r);
            b.l(&q.full(), Kind::Person).t(", who turns ");
            b.l(&format!("{age}"), Kind::Age).t(" on ");
            let d = visit(r);
            b.l(&format!("{} {}", d.month(), d.d), Kind::Date);
        } else {
            b.l(&q.full(), Kind::Person);
            b.t(&format!(
                " — {}",
                r.pick(&[
                    "recovering from hip surgery",
                    "starting chemo",
                    "in hospice care",
                    "home from the hospital"
                ])
            ));
            if r.chance(40) {
                b.t(", room ")
                    .l(&format!("{}", r.range(100, 450)), Kind::Room);
                b.t(" at Kilauea Valley Medical Group");
            }
        }
        b.t("\n");
    }
    b.t("Cards can be sent to the family at ");
    write_addr(b, &addr(r));
    b.t(&format!(".\nMeal train coordinator: {}\n", staff(r)));
}

fn iep_a(r: &mut Rng, p: &Person, b: &mut B) {
    b.t("INDIVIDUALIZED EDUCATION PROGRAM — meeting notes\nStudent: ");
    p.write(r, b);
    b.t("   Student ID: ").l(&r.digits(9), Kind::Account);
    b.t("   DOB: ")
        .l(&Day::new(r, 2010, 2020).any(r), Kind::Date);
    b.t("\nMeeting date: ").l(&visit(r).any(r), Kind::Date);
    b.t(&format!(
        "   Grade {}\nPresent: school nurse {}, speech pathologist, parent ",
        r.range(1, 11),
        staff(r)
    ));
    let par = Person::new(r);
    b.l(&par.full(), Kind::Person);
    b.t(" (").l(&email(r, &par), Kind::Email).t(")\n");
    b.t(&format!(
        "Health plan: EpiPen 0.15 mg in nurse's office, asthma action plan; {} min OT weekly.\nNext annual review by ",
        r.pick(&["30", "45", "60"])
    ));
    b.l(&visit(r).any(r), Kind::Date);
    b.t(". Parent phone ").l(&phone(r), Kind::Phone).t("\n");
}

fn caregiver_a(r: &mut Rng, p: &Person, b: &mut B) {
    let (_, age) = old_dob(r);
    let cg = Person::new(r);
    b.t("shift notes — ");
    b.l(&visit(r).us(), Kind::Date);
    b.t(&format!(" {}–{}\n", time(r), time(r)));
    b.t("client: ").l(p.short(), Kind::Person);
    b.t(" (").l(&format!("{age}"), Kind::Age).t(")\n");
    b.t(&format!(
        "- meds 8am given (metoprolol 25mg, donepezil 10mg). BP 136/82. ate 3/4 breakfast\n- walked to mailbox w walker, steady\n- {} visited, ",
        r.pick(RELATIONS)
    ));
    let v = Person::new(r);
    b.l(v.short(), Kind::Person);
    b.t(" says to call her at ")
        .l(&phone(r), Kind::Phone)
        .t(" if anything\n");
    b.t("- drove client to pharmacy in her car, plate ");
    b.l(
        &format!("{}{} {}", r.range(1, 9), r.letters(3), r.digits(3)),
        Kind::Vehicle,
    );
    b.t("\n- lifeline pendant tested ok, unit # ");
    b.l(&format!("PB{}", r.digits(8)), Kind::Device);
    b.t("\nhanding over to ")
        .l(&cg.short().to_lowercase(), Kind::Person)
        .t(" next shift\n");
}

fn europe2(r: &mut Rng, p: &Person, b: &mut B) {
    let d = dob(r);
    let v = visit(r);
    match r.below(7) {
        0 => {
            b.t("Buongiorno, sono ").l(&p.full(), Kind::Person);
            b.t(", nata il ").l(
                &format!(
                    "{} {} {}",
                    d.d,
                    [
                        "gennaio",
                        "febbraio",
                        "marzo",
                        "aprile",
                        "maggio",
                        "giugno",
                        "luglio",
                        "agosto",
                        "settembre",
                        "ottobre",
                        "novembre",
                        "dicembre"
                    ][d.m as usize - 1],
                    d.y
                ),
                Kind::Date,
            );
            b.t(". Vorrei spostare la visita del ")
                .l(&v.eu(), Kind::Date);
            b.t(". Il mio numero è ")
                .l(&phone(r), Kind::Phone)
                .t(". Grazie!\n");
        }
        1 => {
            b.t("Goedemiddag, mijn naam is ").l(&p.full(), Kind::Person);
            b.t(", geboortedatum ")
                .l(&format!("{}-{}-{}", d.d, d.m, d.y), Kind::Date);
            b.t(". Mijn patiëntnummer is ").l(&mrn(r), Kind::Mrn);
            b.t(". Kunt u mij terugbellen op ")
                .l(&phone(r), Kind::Phone)
                .t("? Met vriendelijke groet\n");
        }
        2 => {
            b.t("Merhaba, ben ").l(&p.full(), Kind::Person);
            b.t(". Doğum tarihim ").l(&d.eu(), Kind::Date);
            b.t(". Randevum ").l(&v.eu(), Kind::Date);
            b.t(" tarihinde, ama gelemiyorum. Adresim: ");
            b.l(&addr(r).street, Kind::Address).t(". Teşekkürler.\n");
        }
        3 => {
            b.t("Habari, naitwa ").l(&p.full(), Kind::Person);
            b.t(". Nilizaliwa tarehe ")
                .l(&format!("{}/{}/{}", d.d, d.m, d.y), Kind::Date);
            b.t(". Namba yangu ya simu ni ").l(&phone(r), Kind::Phone);
            b.t(". Naomba kubadilisha miadi. Asante sana.\n");
        }
        4 => {
            b.t("namaste ji, mera naam ")
                .l(&p.full().to_lowercase(), Kind::Person);
            b.t(" hai. meri janam tithi ").l(
                &format!("{} {} {}", d.d, d.month().to_lowercase(), d.y),
                Kind::Date,
            );
            b.t(" hai. kal ka appointment cancel karna hai, mera number ")
                .l(&phone(r), Kind::Phone);
            b.t(" hai. dhanyavaad\n");
        }
        5 => {
            b.t("konnichiwa, ").l(&p.full(), Kind::Person);
            b.t(" desu. seinengappi wa ").l(
                &format!("{}-nen {}-gatsu {}-nichi", d.y, d.m, d.d),
                Kind::Date,
            );
            b.t(" desu. yoyaku o henkō shitai desu. denwa bangō: ")
                .l(&phone(r), Kind::Phone);
            b.t(". yoroshiku onegaishimasu.\n");
        }
        _ => {
            b.t("Hej! Jeg hedder ").l(&p.full(), Kind::Person);
            b.t(", født ")
                .l(&format!("{}.{}.{}", d.d, d.m, d.y), Kind::Date);
            b.t(". Jeg bor på ").l(&addr(r).street, Kind::Address);
            b.t(". Ring gerne på ")
                .l(&phone(r), Kind::Phone)
                .t(". Mvh\n");
        }
    }
    b.t(&format!(
        "[received via portal {} — routed to {}]\n",
        time(r),
        staff(r)
    ));
}

/// `n` documents from `seed`, the families in turn.
pub fn generate(seed: u64, n: usize) -> Set {
    let mut docs = Vec::with_capacity(n);
    let mut roster = Vec::new();
    for i in 0..n {
        let mut r = Rng(seed ^ (i as u64).wrapping_mul(0xA24B_AED4_963E_E407));
        r.next();
        let family = FAMILIES[i % FAMILIES.len()];
        let p = Person::new(&mut r);
        let mut b = B {
            text: String::new(),
            labels: Vec::new(),
        };
        let write: fn(&mut Rng, &Person, &mut B) = match family {
            "othome" => othome,
            "dermphoto" => dermphoto,
            "allergy" => allergy,
            "census" => census,
            "recovery" => recovery,
            "medicaid" => medicaid,
            "i693" => i693,
            "dotexam" => dotexam,
            "paramed" => paramed,
            "medwatch" => medwatch,
            "poison" => poison,
            "advice" => advice,
            "opo" => opo,
            "transcr" => transcr,
            "insurchat" => insurchat,
            "ticket" => ticket,
            "eucsv" => eucsv,
            "cda" => cda,
            "pdftext" => pdftext,
            "autoreply" => autoreply,
            "obituary" => obituary,
            "prayer" => prayer,
            "iep" => iep,
            "caregiver" => caregiver,
            _ => europe2,
        };
        write(&mut r, &p, &mut b);
        if i % 3 == 0 {
            roster.push(p.full());
        }
        docs.push(Doc {
            family,
            text: b.text,
            labels: b.labels,
        });
    }
    // Staff appear whole, by surname ("Dr. Solvang") and by first name (a chat agent).
    let mut keep: Vec<String> = STAFF.iter().map(|s| s.to_string()).collect();
    for s in STAFF {
        keep.extend(s.split(' ').map(str::to_string));
    }
    keep.extend(ORGS.iter().map(|s| s.to_string()));
    keep.push("St. Brendan's Parish".into());
    Set { docs, roster, keep }
}

// ---- second templates: the same families written another way ----

fn othome(r: &mut Rng, p: &Person, b: &mut B) {
    if r.chance(50) {
        return othome_a(r, p, b);
    }
    let (_, age) = old_dob(r);
    let d = Person::new(r);
    b.t("OT home visit — narrative\n");
    b.l(&visit(r).any(r), Kind::Date);
    b.t(": Seen at home for fall-risk review. Mrs. ")
        .l(p.surname(), Kind::Person)
        .t(" is a ");
    b.l(&age.to_string(), Kind::Age);
    b.t(" y/o woman living alone at ");
    let a = addr(r);
    b.l(&a.street, Kind::Address)
        .t(" (second floor, no elevator). Her ");
    b.t(&format!("{} ", r.pick(RELATIONS)));
    b.l(&d.full(), Kind::Person)
        .t(" stops by on weekends; phone ");
    b.l(&phone(r), Kind::Phone);
    b.t(&format!(
        ".\nRecommendations: remove throw rugs, night lights in hallway, raised toilet seat (E0244). Berg Balance {}/56. {}, OTR/L\n",
        r.range(28, 50),
        staff(r)
    ));
}

fn advice(r: &mut Rng, p: &Person, b: &mut B) {
    if r.chance(50) {
        return advice_a(r, p, b);
    }
    let parent = Person::new(r);
    b.t(&format!("Triage note {} — caller is mother ", time(r)));
    parent.write(r, b);
    b.t(", calling about child ");
    b.l(p.short(), Kind::Person);
    b.t(" (DOB ")
        .l(&Day::new(r, 2017, 2025).any(r), Kind::Date)
        .t(")");
    b.t(&format!(
        ", temp 38.{} C since Tuesday, drinking OK, {} wet diapers today.\nAdvice: acetaminophen 15 mg/kg q6h, recheck tomorrow morning. Callback # ",
        r.range(1, 9),
        r.range(2, 6)
    ));
    b.l(&phone(r), Kind::Phone);
    b.t(" — ok to leave message. Plan ID on card: ");
    b.l(&member(r), Kind::HealthPlan);
    b.t(&format!("\n— {}, RN\n", staff(r)));
}

fn ticket(r: &mut Rng, p: &Person, b: &mut B) {
    if r.chance(50) {
        return ticket_a(r, p, b);
    }
    b.t(&format!(
        "### Bug: PDF export drops accents (#{})\n\n**Environment:** build 4.{}.{}, Chrome 131\n\nRepro with this record (sorry, copied from prod):\n\n```json\n{{\"resourceType\": \"Patient\", \"id\": \"",
        r.range(100, 4000),
        r.range(1, 9),
        r.range(0, 30)
    ));
    b.l(&mrn(r), Kind::Mrn);
    b.t("\", \"name\": [{\"family\": \"");
    b.l(p.surname(), Kind::Person);
    b.t("\", \"given\": [\"");
    b.l(&p.given, Kind::Person);
    b.t("\"]}], \"birthDate\": \"");
    b.l(&dob(r).iso(), Kind::Date);
    b.t("\", \"telecom\": [{\"system\": \"phone\", \"value\": \"");
    b.l(&phone(r), Kind::Phone);
    b.t("\"}]}\n```\n\nRequest came from ");
    b.l(
        &format!("192.168.{}.{}", r.range(0, 255), r.range(2, 254)),
        Kind::Ip,
    );
    b.t(&format!(
        " at {} UTC. Labels: `bug`, `export`. cc @{}\n",
        time(r),
        staff_last(r).to_lowercase()
    ));
}

fn census(r: &mut Rng, p: &Person, b: &mut B) {
    if r.chance(50) {
        return census_a(r, p, b);
    }
    b.t("WHITEBOARD 3N (photo transcribed)\n");
    for i in 0..r.range(3, 5) {
        let other = Person::new(r);
        let q = if i == 0 { p } else { &other };
        b.t("Rm ");
        b.l(&r.range(301, 330).to_string(), Kind::Room);
        b.t(" – ");
        q.write(r, b);
        b.t(&format!(
            " – {} – d/c {}\n",
            r.pick(&[
                "SI precautions",
                "elopement risk",
                "fall risk",
                "no visitors"
            ]),
            r.pick(&["pending", "tomorrow", "Friday", "TBD"])
        ));
    }
    b.t(&format!("Huddle 07:30 · {} charge\n", staff_last(r)));
}

fn eucsv(r: &mut Rng, p: &Person, b: &mut B) {
    if r.chance(50) {
        return eucsv_a(r, p, b);
    }
    b.t("patiëntnr;achternaam;voornaam;geboortedatum;opname;kamer;e-mail\n");
    for i in 0..r.range(3, 5) {
        let other = Person::new(r);
        let q = if i == 0 { p } else { &other };
        b.l(&r.digits(10), Kind::Mrn).t(";");
        b.l(q.surname(), Kind::Person).t(";");
        if !q.mononym {
            b.l(&q.given, Kind::Person);
        }
        b.t(";");
        let d = dob(r);
        b.l(&format!("{:02}-{:02}-{}", d.d, d.m, d.y), Kind::Date)
            .t(";");
        b.l(&visit(r).eu(), Kind::Date).t(";");
        b.l(
            &format!("{}.{:02}", r.range(1, 6), r.range(1, 30)),
            Kind::Room,
        )
        .t(";");
        b.l(&email(r, q), Kind::Email);
        b.t("\n");
    }
    b.t("-- rapport ZIS, DBC 0324, 2 x 500 mg\n");
}

fn allergy(r: &mut Rng, p: &Person, b: &mut B) {
    if r.chance(60) {
        return allergy_a(r, p, b);
    }
    b.t("Subject: shot reaction — ");
    b.l(&p.full(), Kind::Person);
    b.t(&format!(
        "\n\n{},\nPt had a 45 mm wheal after maintenance dose today ",
        staff_last(r)
    ));
    b.l(&visit(r).any(r), Kind::Date);
    b.t(". Held next build-up step. DOB ");
    b.l(&dob(r).any(r), Kind::Date);
    b.t(", MRN ").l(&mrn(r), Kind::Mrn);
    b.t(". Mom (");
    let m = Person::new(r);
    b.l(&m.full(), Kind::Person);
    b.t(") wants a call at ").l(&phone(r), Kind::Phone);
    b.t(" after 3 pm. Billing: CPT 95117, 95165 x 10 doses.\n");
}

fn poison(r: &mut Rng, p: &Person, b: &mut B) {
    if r.chance(50) {
        return poison_a(r, p, b);
    }
    b.t("PCC case ");
    b.l(&format!("{}-{}", r.digits(2), r.digits(7)), Kind::Account);
    b.t(" · adult exposure · HCF call\nPt: ");
    p.write(r, b);
    b.t(&format!(
        ", {} yo, intentional ingestion of sertraline {} mg x{} at approx {}.\nCalled by ED RN {}, Kilauea Valley Medical Group, ",
        r.range(18, 70),
        r.pick(&["50", "100"]),
        r.range(10, 40),
        time(r),
        staff(r)
    ));
    b.t("bed ").l(&r.range(1, 30).to_string(), Kind::Room);
    b.t(". Pt DOB ").l(&adult_dob(r).any(r), Kind::Date);
    b.t(", MRN ").l(&mrn(r), Kind::Mrn);
    b.t(".\nRec: ECG q4h, QTc 452; observe 6 h. f/u call ");
    b.l(&visit(r).any(r), Kind::Date);
    b.t(".\n");
}

fn recovery(r: &mut Rng, p: &Person, b: &mut B) {
    if r.chance(50) {
        return recovery_a(r, p, b);
    }
    // A WhatsApp export: dates in the stamps, nicknames, a phone number as the sender.
    let d = visit(r);
    let stamp = format!("{}/{}/{}", d.m, d.d, d.y % 100);
    let nick = format!(
        "{}{}",
        &p.short().to_lowercase(),
        r.pick(&["z", "bear", "o", "ster"])
    );
    let other = phone(r);
    b.t("[")
        .l(&stamp, Kind::Date)
        .t(&format!(", {}] ", time(r)));
    b.l(&nick, Kind::Person)
        .t(": anyone at the thursday 6:30 tonight? 🙋\n");
    b.t("[")
        .l(&stamp, Kind::Date)
        .t(&format!(", {}] ", time(r)));
    b.l(&other, Kind::Phone).t(": yes!! its me ");
    let q = Person::new(r);
    b.l(&q.short().to_lowercase(), Kind::Person);
    b.t(" new number, save it 😅\n");
    b.t("[")
        .l(&stamp, Kind::Date)
        .t(&format!(", {}] ", time(r)));
    b.l(&nick, Kind::Person).t(": ");
    b.l(&q.short().to_lowercase(), Kind::Person);
    b.t(" 🙌 glad ur back. ");
    b.l(&p.full().to_lowercase(), Kind::Person);
    // "the 14th" alone is no day-precision date: it stays.
    let c = r.range(1, 28);
    b.t(&format!(
        " here btw for the newcomers, 2 yrs on the {c}{} ❤️\n",
        ordinal(c)
    ));
}

fn obituary(r: &mut Rng, p: &Person, b: &mut B) {
    if r.chance(50) {
        return obituary_a(r, p, b);
    }
    let (d, age) = old_dob(r);
    b.t("IN MEMORIAM\n");
    b.l(&p.full().to_uppercase(), Kind::Person);
    b.t("\n")
        .l(&d.any(r), Kind::Date)
        .t(" – ")
        .l(&visit(r).any(r), Kind::Date);
    b.t("\n\nBeloved father and grandfather, ");
    b.l(p.short(), Kind::Person);
    b.t(" died at home in ");
    b.l(
        r.pick(&CITIES.iter().map(|c| c.0).collect::<Vec<_>>()),
        Kind::Address,
    );
    b.t(" at the age of ").l(&age.to_string(), Kind::Age);
    b.t(". He leaves his wife of 64 years, ");
    let w = Person::new(r);
    b.l(&w.full(), Kind::Person);
    b.t(". Visitation Friday 4–7 pm. In lieu of flowers, donations to Cascadia Senior Care. Family contact: ");
    b.l(&phone(r), Kind::Phone);
    b.t(".\n");
}

fn caregiver(r: &mut Rng, p: &Person, b: &mut B) {
    if r.chance(50) {
        return caregiver_a(r, p, b);
    }
    let (d, age) = old_dob(r);
    b.t("CASCADIA SENIOR CARE — In-Home Aide Daily Log\nClient: ");
    p.write(r, b);
    b.t("   Client #: ")
        .l(&format!("CSC-{}", r.digits(5)), Kind::Account);
    b.t("\nDOB ")
        .l(&d.us(), Kind::Date)
        .t(" (age ")
        .l(&age.to_string(), Kind::Age);
    b.t(")   Room ")
        .l(&format!("{}", r.range(101, 140)), Kind::Room);
    b.t(" (assisted living wing)\nDate of service: ")
        .l(&visit(r).any(r), Kind::Date);
    b.t(&format!(
        "\nADLs: bathing w/ standby assist, dressing independent. Intake 1,200 mL. Pulse ox 95% RA.\nAide: {} · Supervisor: {}\n",
        staff(r),
        staff(r)
    ));
    b.t("Emergency contact: ");
    let e = Person::new(r);
    e.write(r, b);
    b.t(" — ").l(&phone(r), Kind::Phone).t("\n");
}

fn insurchat(r: &mut Rng, p: &Person, b: &mut B) {
    if r.chance(50) {
        return insurchat_a(r, p, b);
    }
    b.t(&format!(
        "Bluewater Mutual Messenger · session {}\n",
        r.digits(9)
    ));
    b.t("[bot] Please enter your member ID.\n[you] ");
    b.l(&member(r), Kind::HealthPlan);
    b.t("\n[bot] Thanks. And the last 4 of your SSN?\n[you] actually here's the whole thing ");
    b.l(&ssn(r), Kind::Ssn);
    b.t(" sorry\n[bot] For your security please don't share full numbers. Transferring you to an agent.\n[");
    b.t(staff(r).split(' ').next().unwrap());
    b.t("] Hello! I see the EOB for your visit on ");
    b.l(&visit(r).any(r), Kind::Date);
    b.t(". How can I help?\n[you] the bill went to my old address ");
    b.l(&addr(r).street, Kind::Address);
    b.t(", I'm ");
    b.l(&p.full(), Kind::Person);
    b.t(" not my ex\n[you] new mail: ")
        .l(&email(r, p), Kind::Email)
        .t("\n");
}

fn medwatch(r: &mut Rng, p: &Person, b: &mut B) {
    if r.chance(50) {
        return medwatch_a(r, p, b);
    }
    b.t("Adverse event follow-up (MedWatch 3500A, mfr report ");
    b.t(&format!(
        "{}-{}-{:05})\n",
        r.digits(7),
        2026,
        r.range(1, 99_999)
    ));
    b.t("Pt: ");
    p.write(r, b);
    b.t("; DOB ").l(&dob(r).any(r), Kind::Date);
    b.t("; weight 71 kg.\nDevice: CGM sensor, lot ");
    b.t(&format!("{}{}", r.letters(2), r.digits(4)));
    b.t(", transmitter SN ")
        .l(&format!("8{}", r.letters(1) + &r.digits(5)), Kind::Device);
    b.t(&format!(
        "\nEvent: sensor read 62 mg/dL vs fingerstick 210 mg/dL on {}; patient hospitalized overnight.\nContact for follow-up: ",
        r.pick(&["a Tuesday", "the weekend", "day 3 of wear"])
    ));
    b.l(&phone(r), Kind::Phone);
    b.t(&format!(" · reported by {} (HCP)\n", staff(r)));
}

fn iep(r: &mut Rng, p: &Person, b: &mut B) {
    if r.chance(50) {
        return iep_a(r, p, b);
    }
    let par = Person::new(r);
    b.t("To: ").l(&email(r, &par), Kind::Email);
    b.t("\nSubject: IEP follow-up\n\nHi Ms. ");
    b.l(par.surname(), Kind::Person);
    b.t(",\nThanks for meeting about ");
    b.l(p.short(), Kind::Person);
    b.t(" on ").l(&visit(r).any(r), Kind::Date);
    b.t(". As discussed, the 504 accommodations (extra time, seating near the door for the insulin pump checks) start next Monday. Could you send the pump's serial (");
    b.l(&format!("PM{}{}", r.digits(6), r.letters(1)), Kind::Device);
    b.t(&format!(
        " on our old form?) and the endo's orders?\nBest,\n{}\nSchool Nurse, Ridgeback Family Clinic school-based site\n",
        staff(r)
    ));
}

fn cda(r: &mut Rng, p: &Person, b: &mut B) {
    if r.chance(50) {
        return cda_a(r, p, b);
    }
    // HL7 v3 messages put identifiers in attributes on one long line.
    b.t("<PRPA_IN201305UV02><controlActProcess><queryByParameter><parameterList>");
    b.t("<livingSubjectName><value><given>");
    b.l(&p.given, Kind::Person);
    b.t("</given><family>");
    b.l(p.surname(), Kind::Person);
    b.t("</family></value></livingSubjectName><livingSubjectBirthTime><value value=\"");
    b.l(&dob(r).compact(), Kind::Date);
    b.t("\"/></livingSubjectBirthTime><livingSubjectId><value root=\"2.16.840.1.113883.4.1\" extension=\"");
    b.l(&ssn(r).replace('-', ""), Kind::Ssn);
    b.t("\"/></livingSubjectId><patientTelecom><value value=\"tel:+1-");
    let ph = format!(
        "{}-{}-{}",
        r.pick(AREAS),
        r.range(221, 989),
        r.range(1000, 9999)
    );
    b.l(&ph, Kind::Phone);
    b.t("\"/></patientTelecom></parameterList></queryByParameter></controlActProcess></PRPA_IN201305UV02>\n");
}

fn dermphoto(r: &mut Rng, p: &Person, b: &mut B) {
    if r.chance(50) {
        return dermphoto_a(r, p, b);
    }
    b.t("photo log · teledermatology\n");
    // Scanner file names glue the parts with underscores; each part is labelled.
    let d = visit(r);
    b.l(&p.surname().replace(' ', "-"), Kind::Person).t("_");
    if !p.mononym {
        b.l(&p.given.replace(' ', "-"), Kind::Person).t("_");
    }
    b.l(&d.compact(), Kind::Date);
    b.t(&format!(
        "_{}.heic  uploaded {}  by {}\n",
        r.pick(&["L_forearm", "R_cheek", "back_2"]),
        time(r),
        staff(r)
    ));
    b.t("Consent on file (signed ");
    b.l(&d.us(), Kind::Date);
    b.t("). MRN ").l(&mrn(r), Kind::Mrn);
    b.t(". Dermoscopy: atypical network, 6 mm, ABCDE 3/5, biopsy CPT 11102.\n");
}
