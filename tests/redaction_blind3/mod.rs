//! The third blind evaluation set for the PHI redactor (issue 29): a seeded, deterministic
//! generator of labelled documents in 15 families of writing the first two sets may not
//! have — ED triage notes, home-health visits, dental and behavioral-health intake forms,
//! care-coordination mail between clinics, EMS run reports, social-work notes, DME orders,
//! long-term-care updates to families, pediatric notes with parents, telehealth chat logs,
//! scanned-form OCR text, spreadsheets pasted as tab text, SMS reminders and dictation with
//! spoken punctuation. Written without reading the redactor's rules, its word lists or the
//! other sets.
//!
//! Labelling conventions: every phone, fax and email address is labelled (the clinic's own
//! too); every day-precision date is labelled (month/year and weekdays, relative dates and
//! times are not); ages only from 90 up, the number alone; a person's name is labelled
//! without its title ("Mr.", "Dr."), each part separately when something sits between the
//! parts (a nickname in quotes); a street line with its unit is one address, the city is an
//! address of its own, the state is left, the ZIP is a zip; a room or bed is labelled by
//! its number alone ("Rm [[12B]]"), and a pharmacy street a patient names is an address. Staff and clinic names are in the
//! keep list and never labelled; so are lookalikes (order, PO, lot, NDC, CPT, ICD, HCPCS and
//! NPI numbers, dosages, vitals, times, conference rooms, tooth numbers, group numbers).

use opsdesk::governance::redact::Kind;

use crate::redaction_harness::{Doc, Label, Set};

pub const FAMILIES: [&str; 15] = [
    "ed_triage",
    "home_health",
    "dental",
    "behavioral",
    "care_mail",
    "ems_run",
    "social_work",
    "dme_order",
    "ltc_update",
    "pediatric",
    "tele_chat",
    "ocr_form",
    "sheet_tab",
    "sms",
    "dictation",
];

/// splitmix64: small, seedable, no clock.
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
    fn chance(&mut self, pct: u32) -> bool {
        self.range(1, 100) <= pct
    }
    fn digits(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from(b'0' + self.below(10) as u8))
            .collect()
    }
    fn letters(&mut self, n: usize) -> String {
        // No I or O: they read as digits on forms.
        const L: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ";
        (0..n).map(|_| char::from(L[self.below(L.len())])).collect()
    }
}

/// A document under construction: plain text and labelled identifiers, appended in order.
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
            kind,
            start,
            end: self.text.len(),
        });
        self
    }
}

// ---- pools -------------------------------------------------------------------------------

const FIRST_F: &[&str] = &[
    "Ngozi",
    "Adaeze",
    "Oluwaseun",
    "Meseret",
    "Hodan",
    "Fatima",
    "Shirin",
    "Elif",
    "Lakshmi",
    "Nusrat",
    "Xiaoling",
    "Seo-yeon",
    "Yui",
    "Linh",
    "Maricel",
    "Putu",
    "Agnieszka",
    "Svetlana",
    "Oksana",
    "Eleni",
    "Xiomara",
    "Guadalupe",
    "Marie-Claude",
    "Malia",
    "Aroha",
    "Siobhan",
    "Niamh",
    "Sigrid",
    "Zsófia",
    "Ioana",
    "Rose",
    "Hope",
    "Summer",
    "Faith",
    "Grace",
    "April",
    "June",
    "Dawn",
    "Joy",
    "Precious",
    "Chiamaka",
    "Thandiwe",
    "Amara",
    "Leilani",
    "Ayşe",
    "Bích",
    "Kalani",
    "Renée",
];
const FIRST_M: &[&str] = &[
    "Chukwuemeka",
    "Tesfaye",
    "Abdirahman",
    "Yousef",
    "Khalid",
    "Dariush",
    "Emre",
    "Venkatesh",
    "Arjun",
    "Rahim",
    "Zhiwei",
    "Ji-hoon",
    "Haruto",
    "Thanh",
    "Jerome",
    "Somchai",
    "Wojciech",
    "Dmitri",
    "Taras",
    "Giorgos",
    "João",
    "Jean-Baptiste",
    "Sione",
    "Tane",
    "Cormac",
    "Bjørn",
    "Joost",
    "Bence",
    "Guy",
    "Bill",
    "Will",
    "Mark",
    "Victor",
    "Kwame",
    "Olusegun",
    "Mehmet",
    "Anh",
    "Rangi",
    "Santiago",
    "Iñaki",
    "Ravi",
    "Tomasz",
];
const LAST: &[&str] = &[
    "Okonkwo",
    "Adeyemi",
    "Haile",
    "Warsame",
    "Al-Hashimi",
    "Tehrani",
    "Yılmaz",
    "Krishnamurthy",
    "Chaudhry",
    "Hossain",
    "Zhang",
    "Liu",
    "Park",
    "Choi",
    "Takahashi",
    "Nguyen",
    "Tran",
    "Dela Cruz",
    "Santos",
    "Srisuk",
    "Wijaya",
    "Kowalczyk",
    "Ivanova",
    "Shevchenko",
    "Papadopoulos",
    "Esposito",
    "Ramírez",
    "Gonçalves",
    "Pierre-Louis",
    "Tuilagi",
    "Ngata",
    "O'Sullivan",
    "MacLeod",
    "Lindqvist",
    "van der Berg",
    "Horváth",
    "Popescu",
    "Young",
    "Price",
    "Long",
    "White",
    "Moody",
    "Brown",
    "Little",
    "Hall",
    "King",
    "Bell",
    "Rich",
    "Strong",
    "Love",
    "Sharp",
    "Rice",
    "Moss",
    "Church",
    "Mensah",
    "Boateng",
    "Nakamura",
    "Oyelaran",
    "Bui",
    "Phiri",
    "Mahlangu",
    "Quispe",
    "Mamani",
    "Kaur",
];
/// Nicknames for a first name, when it has a usual one.
const NICK: &[(&str, &str)] = &[
    ("Chukwuemeka", "Emeka"),
    ("Oluwaseun", "Seun"),
    ("Abdirahman", "Abdi"),
    ("Venkatesh", "Venky"),
    ("Wojciech", "Wojtek"),
    ("Dmitri", "Dima"),
    ("Giorgos", "George"),
    ("Jean-Baptiste", "JB"),
    ("Svetlana", "Sveta"),
    ("Agnieszka", "Aga"),
    ("Zsófia", "Zsofi"),
    ("Guadalupe", "Lupe"),
    ("Bill", "Billy"),
    ("Olusegun", "Segun"),
    ("Chiamaka", "Ama"),
    ("Elif", "Eli"),
    ("Tomasz", "Tomek"),
];
const STREET: &[&str] = &[
    "Willow Bend Rd",
    "Harmon Ave",
    "N Fairview St",
    "Orchard Hill Dr",
    "Calle Luna",
    "Bramblewood Ct",
    "W 38th St",
    "Old Mill Pike",
    "Kensington Blvd",
    "Lakeshore Ter",
    "Sycamore Ln",
    "Rue Cartier",
    "Pohaku Pl",
    "Summit Ridge Way",
    "E Main St",
    "Magnolia Cir",
    "Birchmont Pkwy",
    "Pioneer Trl",
];
const CITY: &[(&str, &str)] = &[
    ("Millbrook", "NY"),
    ("Dayton", "OH"),
    ("Hilo", "HI"),
    ("Shawnee", "KS"),
    ("Lowell", "MA"),
    ("St. Cloud", "MN"),
    ("Bowling Green", "KY"),
    ("Pueblo", "CO"),
    ("Laredo", "TX"),
    ("Fayetteville", "AR"),
    ("Eau Claire", "WI"),
    ("Cheyenne", "WY"),
];
const AREA: &[&str] = &[
    "502", "317", "614", "919", "808", "785", "978", "320", "270", "719", "956", "479",
];
const MAIL_DOMAINS: &[&str] = &[
    "gmail.com",
    "yahoo.com",
    "outlook.com",
    "icloud.com",
    "aol.com",
    "proton.me",
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
const WEEKDAYS: &[&str] = &[
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];
const RELATIVE: &[&str] = &[
    "yesterday",
    "this morning",
    "2 days ago",
    "last week",
    "three weeks ago",
    "since Sunday",
    "over the weekend",
];

/// Staff of the practices (in the keep list): (full name, how notes write it).
const STAFF: &[(&str, &str)] = &[
    ("Anand Kulkarni", "Dr. Kulkarni"),
    ("Teresa Vo", "Teresa Vo, RN"),
    ("Marguerite Oduya", "M. Oduya, LCSW"),
    ("Henrik Aalto", "Dr. Aalto"),
    ("Camille Dufresne", "Camille Dufresne, PT"),
    ("Rashida Bellamy", "Rashida Bellamy, MSW"),
    ("Corbin Fairweather", "Dr. Fairweather"),
    ("Inés Calderón", "Inés Calderón, NP"),
    ("Paul Whitacre", "P. Whitacre, EMT-P"),
    ("Sunita Deshpande", "Dr. Deshpande"),
    ("Lorraine Tibbets", "Lorraine Tibbets, DDS"),
    ("Felix Amankwah", "Felix Amankwah, RN"),
];
const CLINICS: &[(&str, &str)] = &[
    ("Riverbend Family Health", "riverbendfh.org"),
    ("Cedar Hollow Dental", "cedarhollowdental.com"),
    ("North Ridge Behavioral Health", "northridgebh.org"),
    ("Bayview Home Health", "bayviewhh.com"),
    ("Maple Court Care Center", "maplecourtcare.com"),
    ("St. Adalbert Medical Center", "stadalbert.org"),
    ("Prairie Sky Pediatrics", "prairiesky-peds.com"),
    ("Keystone Medical Supply", "keystonemedsupply.com"),
];
const RELATIONS: &[&str] = &[
    "daughter", "son", "wife", "husband", "niece", "neighbor", "sister", "grandson",
];
const PLANS: &[&str] = &[
    "Medicaid",
    "Aetna Better Health",
    "Humana Gold Plus",
    "BCBS",
    "UnitedHealthcare Community Plan",
    "Molina",
    "Medicare",
    "Ambetter",
];
const COMPLAINTS: &[&str] = &[
    "chest pain",
    "SOB",
    "fall from standing",
    "abd pain RLQ",
    "headache, worst of life",
    "laceration L hand",
    "fever and cough",
    "dizziness",
    "suicidal ideation",
    "allergic reaction",
];
const MEDS: &[&str] = &[
    "metformin 500 mg BID",
    "lisinopril 20 mg daily",
    "apixaban 5 mg BID",
    "sertraline 100 mg qAM",
    "levothyroxine 88 mcg",
    "albuterol HFA 2 puffs q4h PRN",
    "insulin glargine 24 units qHS",
    "furosemide 40 mg daily",
    "quetiapine 50 mg qHS",
];

// ---- people and identifiers ----------------------------------------------------------------

#[derive(Clone)]
struct Patient {
    first: &'static str,
    last: &'static str,
    mid: char,
    nick: Option<&'static str>,
    female: bool,
    dob: (u32, u32, u32),
}

impl Patient {
    fn full(&self) -> String {
        format!("{} {}", self.first, self.last)
    }
    fn he(&self) -> &'static str {
        if self.female { "she" } else { "he" }
    }
    fn his(&self) -> &'static str {
        if self.female { "her" } else { "his" }
    }
}

struct Gen {
    r: Rng,
    roster: Vec<String>,
    patients: usize,
}

impl Gen {
    fn patient(&mut self, min_year: u32, max_year: u32) -> Patient {
        let female = self.r.chance(50);
        let first = if female {
            self.r.pick(FIRST_F)
        } else {
            self.r.pick(FIRST_M)
        };
        let p = Patient {
            first,
            last: self.r.pick(LAST),
            mid: char::from(b'A' + self.r.below(26) as u8),
            nick: NICK.iter().find(|(f, _)| *f == first).map(|(_, n)| *n),
            female,
            dob: (
                self.r.range(min_year, max_year),
                self.r.range(1, 12),
                self.r.range(1, 28),
            ),
        };
        if self.patients.is_multiple_of(3) {
            self.roster.push(p.full());
        }
        self.patients += 1;
        p
    }
    /// Someone who is not a patient: a relative, a parent, an outside doctor.
    fn other(&mut self) -> String {
        let first = if self.r.chance(50) {
            self.r.pick(FIRST_F)
        } else {
            self.r.pick(FIRST_M)
        };
        format!("{first} {}", self.r.pick(LAST))
    }
    fn staff(&mut self) -> &'static str {
        self.r.pick(&STAFF.iter().map(|s| s.1).collect::<Vec<_>>())
    }
    fn clinic(&mut self) -> (&'static str, &'static str) {
        CLINICS[self.r.below(CLINICS.len())]
    }

    /// A labelled name in one of its written forms.
    fn name(&mut self, b: &mut B, p: &Patient) {
        match self.r.below(9) {
            0 => b.l(Kind::Person, &format!("{}, {}", p.last, p.first)),
            1 => b.l(Kind::Person, &format!("{} {}. {}", p.first, p.mid, p.last)),
            2 => b.l(
                Kind::Person,
                &format!("{}, {}", p.last.to_uppercase(), p.first.to_uppercase()),
            ),
            3 => b.l(
                Kind::Person,
                &format!("{}. {}", p.first.chars().next().unwrap_or('X'), p.last),
            ),
            4 if p.nick.is_some() => b
                .l(Kind::Person, p.first)
                .t(" \"")
                .l(Kind::Person, p.nick.unwrap_or_default())
                .t("\" ")
                .l(Kind::Person, p.last),
            5 if p.nick.is_some() => b.l(
                Kind::Person,
                &format!("{} {}", p.nick.unwrap_or_default(), p.last),
            ),
            _ => b.l(Kind::Person, &p.full()),
        };
    }

    fn date(&mut self, (y, m, d): (u32, u32, u32)) -> String {
        let mon = MONTHS[m as usize - 1];
        match self.r.below(10) {
            0 => format!("{m:02}/{d:02}/{y}"),
            1 => format!("{m}/{d}/{:02}", y % 100),
            2 => format!("{y}-{m:02}-{d:02}"),
            3 => format!("{mon} {d}, {y}"),
            4 => format!("{d} {} {y}", &mon[..3]),
            5 => format!("{} {d} {y}", &mon[..3]),
            6 => format!("{d:02}-{}-{y}", mon[..3].to_uppercase()),
            7 => format!("{m}-{d}-{y}"),
            8 => format!("{mon} {d}{}", ordinal(d)),
            _ => format!("{m}/{d}/{y}"),
        }
    }
    fn visit_day(&mut self) -> (u32, u32, u32) {
        (
            self.r.range(2024, 2026),
            self.r.range(1, 12),
            self.r.range(1, 28),
        )
    }
    fn phone(&mut self) -> String {
        let a = self.r.pick(AREA);
        let x = self.r.range(201, 989);
        let n = self.r.digits(4);
        match self.r.below(7) {
            0 => format!("({a}) {x}-{n}"),
            1 => format!("{a}-{x}-{n}"),
            2 => format!("{a}.{x}.{n}"),
            3 => format!("+1 {a} {x} {n}"),
            4 => format!("{a}{x}{n}"),
            5 => format!("1-{a}-{x}-{n}"),
            _ => format!("({a}){x}-{n}"),
        }
    }
    fn foreign_phone(&mut self) -> String {
        match self.r.below(4) {
            0 => format!("+234 803 {} {}", self.r.digits(3), self.r.digits(4)),
            1 => format!("+44 7700 {}{}", self.r.digits(3), self.r.digits(3)),
            2 => format!("+63 917 {} {}", self.r.digits(3), self.r.digits(4)),
            _ => format!(
                "+48 {} {} {}",
                self.r.digits(3),
                self.r.digits(3),
                self.r.digits(3)
            ),
        }
    }
    fn email(&mut self, p: &Patient) -> String {
        let f = ascii(p.first).to_lowercase();
        let l = ascii(p.last).to_lowercase();
        let dom = self.r.pick(MAIL_DOMAINS);
        match self.r.below(4) {
            0 => format!("{f}.{l}@{dom}"),
            1 => format!("{}{l}{}@{dom}", &f[..1], self.r.range(1, 99)),
            2 => format!("{f}_{}@{dom}", self.r.range(1950, 2005)),
            _ => format!("{l}.family@{dom}"),
        }
    }
    fn mrn(&mut self) -> String {
        match self.r.below(5) {
            0 => self.r.digits(8),
            1 => format!("RB{}", self.r.digits(6)),
            2 => format!("M-{}", self.r.digits(7)),
            3 => format!("{}-{}", self.r.digits(3), self.r.digits(4)),
            _ => format!("00{}", self.r.digits(6)),
        }
    }
    fn mrn_label(&mut self) -> &'static str {
        self.r
            .pick(&["MRN", "MRN#", "Med Rec #", "Chart No.", "MR", "Patient ID"])
    }
    fn member(&mut self) -> String {
        match self.r.below(4) {
            0 => format!("{}{}", self.r.letters(3), self.r.digits(9)),
            1 => format!("W{}", self.r.digits(9)),
            2 => format!("{}{}", self.r.digits(8), self.r.letters(1)),
            _ => {
                // Medicare MBI shape: 1EG4-TE5-MK72.
                let r = &mut self.r;
                format!(
                    "{}{}{}{}-{}{}{}-{}{}{}",
                    r.range(1, 9),
                    r.letters(1),
                    r.letters(1),
                    r.digits(1),
                    r.letters(1),
                    r.letters(1),
                    r.digits(1),
                    r.letters(2),
                    r.digits(1),
                    r.digits(1)
                )
            }
        }
    }
    fn ssn(&mut self) -> String {
        let a = self.r.range(101, 665);
        let g = self.r.range(10, 99);
        let s = self.r.range(1001, 9999);
        match self.r.below(3) {
            0 => format!("{a}-{g}-{s}"),
            1 => format!("{a} {g} {s}"),
            _ => format!("{a}{g}{s}"),
        }
    }
    fn account(&mut self) -> String {
        match self.r.below(3) {
            0 => self.r.digits(9),
            1 => format!("A{}", self.r.digits(7)),
            _ => format!("{}-{}", self.r.digits(4), self.r.digits(5)),
        }
    }
    fn device(&mut self) -> (String, String) {
        let what = self.r.pick(&[
            "CPAP",
            "insulin pump",
            "pacemaker",
            "hearing aid",
            "power wheelchair",
            "oxygen concentrator",
            "CGM transmitter",
        ]);
        let sn = match self.r.below(3) {
            0 => format!(
                "{}{}{}",
                self.r.letters(3),
                self.r.digits(6),
                self.r.letters(1)
            ),
            1 => format!(
                "{}-{}-{}",
                self.r.digits(2),
                self.r.digits(5),
                self.r.letters(1)
            ),
            _ => format!("{}{}", self.r.letters(1), self.r.digits(9)),
        };
        (what.to_string(), sn)
    }
    /// A room or bed: the word is left, the number labelled.
    fn room(&mut self, b: &mut B) {
        let (word, number) = match self.r.below(6) {
            0 => ("Room ", self.r.range(101, 649).to_string()),
            1 => (
                "Rm ",
                format!("{}{}", self.r.range(1, 40), self.r.letters(1)),
            ),
            2 => ("Bed ", self.r.range(1, 9).to_string()),
            3 => (
                "room ",
                format!("{}-{}", self.r.range(200, 499), self.r.pick(&["A", "B"])),
            ),
            4 => (
                "bed ",
                format!("{}{}", self.r.range(1, 30), self.r.pick(&["A", "B"])),
            ),
            _ => ("Rm. ", self.r.range(1100, 1199).to_string()),
        };
        b.t(word).l(Kind::Room, &number);
    }
    /// Street line (with a unit sometimes), city, state, ZIP.
    fn address(&mut self) -> (String, &'static str, &'static str, String) {
        let mut street = format!("{} {}", self.r.range(7, 9899), self.r.pick(STREET));
        if self.r.chance(30) {
            street.push_str(&format!(
                "{}{}",
                self.r.pick(&[" Apt ", ", Apt ", " Unit ", " #"]),
                self.r.range(1, 40)
            ));
        }
        let (city, st) = CITY[self.r.below(CITY.len())];
        let mut zip = format!("{}{}", self.r.range(1, 9), self.r.digits(4));
        if self.r.chance(25) {
            zip.push_str(&format!("-{}", self.r.digits(4)));
        }
        (street, city, st, zip)
    }
    fn write_address(&mut self, b: &mut B, one_line: bool) {
        let (street, city, st, zip) = self.address();
        b.l(Kind::Address, &street)
            .t(if one_line { ", " } else { "\n" })
            .l(Kind::Address, city)
            .t(&format!(", {st} "))
            .l(Kind::Zip, &zip);
    }
    fn card(&mut self) -> String {
        // A Luhn-valid 16-digit number starting with 4.
        let mut d: Vec<u32> = vec![4];
        d.extend((0..14).map(|_| self.r.below(10) as u32));
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
        if self.r.chance(50) {
            format!("{} {} {} {}", &s[..4], &s[4..8], &s[8..12], &s[12..])
        } else {
            s
        }
    }
    fn time(&mut self) -> String {
        let h = self.r.range(0, 23);
        let m = self.r.range(0, 59);
        match self.r.below(3) {
            0 => format!("{h:02}:{m:02}"),
            1 => format!("{h:02}{m:02}"),
            _ => format!(
                "{}:{m:02} {}",
                if h.is_multiple_of(12) { 12 } else { h % 12 },
                if h < 12 { "AM" } else { "PM" }
            ),
        }
    }
    fn lookalike(&mut self) -> String {
        match self.r.below(9) {
            0 => format!("Order #{}", self.r.digits(7)),
            1 => format!("Lot {}{}", self.r.digits(1), self.r.letters(1)) + &self.r.digits(4),
            2 => format!(
                "NDC {}-{}-{}",
                self.r.digits(4),
                self.r.digits(4),
                self.r.digits(2)
            ),
            3 => format!(
                "CPT {}",
                self.r.pick(&["99213", "99214", "90837", "D0150", "96127"])
            ),
            4 => format!(
                "ICD-10 {}",
                self.r
                    .pick(&["E11.9", "I10", "F41.1", "J45.40", "M54.5", "Z00.129"])
            ),
            5 => format!("PO {}", self.r.digits(8)),
            6 => format!("ref #{}", self.r.digits(6)),
            7 => format!("NPI {}", 1_000_000_000 + self.r.below(999_999_999)),
            _ => format!("BP {}/{}", self.r.range(96, 168), self.r.range(54, 98)),
        }
    }
}

fn ordinal(d: u32) -> &'static str {
    match (d % 10, d % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    }
}

/// The name as an email local part would write it.
fn ascii(s: &str) -> String {
    s.chars()
        .filter_map(|c| match c {
            'á' | 'à' => Some('a'),
            'é' | 'è' => Some('e'),
            'í' | 'ı' => Some('i'),
            'ó' | 'ø' => Some('o'),
            'ñ' => Some('n'),
            'ç' => Some('c'),
            'ş' => Some('s'),
            'ü' => Some('u'),
            c if c.is_ascii_alphabetic() => Some(c),
            _ => None,
        })
        .collect()
}

fn age_at(dob: (u32, u32, u32), on: (u32, u32, u32)) -> u32 {
    let mut a = on.0 - dob.0;
    if (on.1, on.2) < (dob.1, dob.2) {
        a -= 1;
    }
    a
}

/// An age: labelled from 90 up only.
fn write_age(b: &mut B, age: u32) {
    if age >= 90 {
        b.l(Kind::Age, &age.to_string());
    } else {
        b.t(&age.to_string());
    }
}

// ---- families ------------------------------------------------------------------------------

fn ed_triage(g: &mut Gen, b: &mut B) {
    let p = g.patient(1924, 2006);
    let on = g.visit_day();
    let d = g.date(on);
    let t = g.time();
    b.t("ED TRIAGE NOTE — St. Adalbert Medical Center\nArrival: ")
        .l(Kind::Date, &d)
        .t(&format!(" {t}   ESI {}\nPt: ", g.r.range(1, 5)));
    g.name(b, &p);
    b.t("   DOB ");
    let dob = g.date(p.dob);
    b.l(Kind::Date, &dob).t(&format!("   {} ", g.mrn_label()));
    let m = g.mrn();
    b.l(Kind::Mrn, &m).t("\nAge/Sex: ");
    write_age(b, age_at(p.dob, on));
    b.t(if p.female { "F" } else { "M" }).t("   Location: ");
    g.room(b);
    b.t(&format!(
        "\nCC: {} x {}\nVitals: BP {}/{} HR {} RR {} T {}.{} SpO2 {}% RA  Pain {}/10\n",
        g.r.pick(COMPLAINTS),
        g.r.pick(&["2 days", "3 hrs", "1 wk", "since last night", "30 min"]),
        g.r.range(90, 190),
        g.r.range(50, 110),
        g.r.range(48, 140),
        g.r.range(12, 30),
        g.r.range(36, 39),
        g.r.range(0, 9),
        g.r.range(84, 100),
        g.r.range(0, 10)
    ));
    b.t(&format!("Home meds: {}. Allergies: ", g.r.pick(MEDS)))
        .t(g.r.pick(&["NKDA", "PCN (hives)", "sulfa", "latex"]))
        .t(".\n");
    if g.r.chance(70) {
        let rel = g.r.pick(RELATIONS);
        let who = g.other();
        b.t(&format!("Brought in by {rel} "))
            .l(Kind::Person, &who)
            .t(", callback ");
        let ph = g.phone();
        b.l(Kind::Phone, &ph).t(".\n");
    }
    if g.r.chance(40) {
        b.t(&format!(
            "Pt says {} has no hope of getting the bill paid and does not want admission.\n",
            p.he()
        ));
    }
    let s = g.r.pick(&["Teresa Vo, RN", "Felix Amankwah, RN"]);
    b.t(&format!(
        "Triage RN: {s}. Reassessed {} at {}.\n",
        g.r.pick(RELATIVE),
        g.time()
    ));
}

fn home_health(g: &mut Gen, b: &mut B) {
    let p = g.patient(1925, 1965);
    let on = g.visit_day();
    b.t("Bayview Home Health — Skilled Nursing Visit\nPatient: ");
    g.name(b, &p);
    b.t("  |  Visit date: ");
    let d = g.date(on);
    b.l(Kind::Date, &d)
        .t(&format!(
            "  |  Visit {} of {}\n",
            g.r.range(1, 8),
            g.r.range(8, 12)
        ))
        .t("Home: ");
    g.write_address(b, true);
    b.t("\n");
    if g.r.chance(50) {
        b.t("Pt age ");
        let a = age_at(p.dob, on);
        write_age(b, a);
        b.t(", lives with ");
    } else {
        b.t("Lives with ");
    }
    let rel = g.r.pick(RELATIONS);
    let who = g.other();
    b.t(&format!("{rel} ")).l(Kind::Person, &who).t(" (cell ");
    let ph = g.phone();
    b.l(Kind::Phone, &ph).t(").\n");
    b.t(&format!(
        "Assessment: wound L heel {}.{} x {}.{} cm, no odor. BP {}/{}, P {}, SpO2 {}%.\n",
        g.r.range(1, 4),
        g.r.range(0, 9),
        g.r.range(1, 3),
        g.r.range(0, 9),
        g.r.range(100, 160),
        g.r.range(60, 95),
        g.r.range(58, 110),
        g.r.range(88, 99)
    ));
    b.t(&format!(
        "Meds reconciled: {}; {}. Rose from chair with walker, gait steady. Long-term goal: \
         ambulate 150 ft.\n",
        g.r.pick(MEDS),
        g.r.pick(MEDS)
    ));
    if g.r.chance(50) {
        let (what, sn) = g.device();
        b.t(&format!("Checked {what}, serial "))
            .l(Kind::Device, &sn)
            .t(", working.\n");
    }
    b.t(&format!(
        "Supplies: {} (silver alginate dressings). Next visit {}.\nClinician: {}\n",
        g.lookalike(),
        g.r.pick(WEEKDAYS),
        g.staff()
    ));
}

fn dental(g: &mut Gen, b: &mut B) {
    let p = g.patient(1940, 2012);
    b.t("CEDAR HOLLOW DENTAL — NEW PATIENT REGISTRATION\n")
        .t("Name (Last, First, MI): ")
        .l(Kind::Person, &format!("{}, {} {}", p.last, p.first, p.mid))
        .t("\nPreferred name: ");
    match p.nick {
        Some(n) => b.l(Kind::Person, n),
        None => b.t("—"),
    };
    b.t("\nDate of birth: ");
    let dob = g.date(p.dob);
    b.l(Kind::Date, &dob).t("     SSN: ");
    let s = g.ssn();
    b.l(Kind::Ssn, &s).t("\nStreet: ");
    let (street, city, st, zip) = g.address();
    b.l(Kind::Address, &street)
        .t("\nCity: ")
        .l(Kind::Address, city)
        .t(&format!("   State: {st}   ZIP: "))
        .l(Kind::Zip, &zip)
        .t("\nCell: ");
    let ph = g.phone();
    b.l(Kind::Phone, &ph).t("   Work: ");
    if g.r.chance(50) {
        let ph = g.phone();
        b.l(Kind::Phone, &ph);
    } else {
        b.t("n/a");
    }
    b.t("\nEmail: ");
    let e = g.email(&p);
    b.l(Kind::Email, &e).t(&format!(
        "\nDental insurance: {}   Subscriber ID: ",
        g.r.pick(&["Delta Dental", "MetLife", "Guardian", "Cigna Dental"])
    ));
    let m = g.member();
    b.l(Kind::HealthPlan, &m)
        .t(&format!("   Group #: {}\n", g.r.digits(6)))
        .t("Subscriber (if not self): ");
    if g.r.chance(50) {
        let who = g.other();
        b.l(Kind::Person, &who).t(", DOB ");
        let d = (g.r.range(1950, 1995), g.r.range(1, 12), g.r.range(1, 28));
        let d = g.date(d);
        b.l(Kind::Date, &d);
    } else {
        b.t("self");
    }
    b.t(&format!(
        "\nReason for visit: tooth #{} pain, cold sensitivity. Last cleaning: {}.\n",
        g.r.range(1, 32),
        g.r.pick(&["2 yrs ago", "unsure", "last summer", "over a year"])
    ));
    b.t("Medical hx: ")
        .t(g.r.pick(&["HTN", "T2DM", "none", "asthma", "on apixaban"]))
        .t(". Premedication needed? N\nSignature: ");
    b.l(Kind::Person, &p.full()).t("   Date: ");
    let on = g.visit_day();
    let d = g.date(on);
    b.l(Kind::Date, &d)
        .t("\nReviewed by Lorraine Tibbets, DDS\n");
}

fn behavioral(g: &mut Gen, b: &mut B) {
    let p = g.patient(1950, 2008);
    let on = g.visit_day();
    b.t("North Ridge Behavioral Health — Intake Assessment\nClient: ");
    g.name(b, &p);
    b.t("\nClient ID: ");
    let m = g.mrn();
    b.l(Kind::Mrn, &m).t("    DOB: ");
    let dob = g.date(p.dob);
    b.l(Kind::Date, &dob).t("    Intake date: ");
    let d = g.date(on);
    b.l(Kind::Date, &d).t("\nReferred by: Dr. ");
    let who = g.other();
    b.l(Kind::Person, &who).t(&format!(
        " ({})\n",
        g.r.pick(&["PCP", "ED", "school counselor", "self"])
    ));
    b.t(&format!(
        "Presenting concerns: low mood {}, poor sleep, passive SI without plan. PHQ-9 {}, GAD-7 {}.\n",
        g.r.pick(RELATIVE),
        g.r.range(5, 27),
        g.r.range(3, 21)
    ));
    b.t(&format!(
        "Substance use: {}. Current meds: {}.\n",
        g.r.pick(&[
            "denies",
            "EtOH 2-3 drinks/wk",
            "cannabis daily",
            "quit tobacco 2019"
        ]),
        g.r.pick(MEDS)
    ));
    b.t("Emergency contact: ");
    let ec = g.other();
    b.l(Kind::Person, &ec)
        .t(&format!(" ({}) ", g.r.pick(RELATIONS)));
    let ph = if g.r.chance(20) {
        g.foreign_phone()
    } else {
        g.phone()
    };
    b.l(Kind::Phone, &ph)
        .t(&format!("\nInsurance: {}  Member #: ", g.r.pick(PLANS)));
    let mem = g.member();
    b.l(Kind::HealthPlan, &mem).t("\n");
    if g.r.chance(40) {
        b.t("Client prefers email: ");
        let e = g.email(&p);
        b.l(Kind::Email, &e).t("\n");
    }
    b.t(&format!(
        "Safety plan reviewed in Conference Room B. Next session {} at {} ({}).\nClinician: {}\n",
        g.r.pick(WEEKDAYS),
        g.time(),
        g.lookalike(),
        g.r.pick(&[
            "M. Oduya, LCSW",
            "Rashida Bellamy, MSW",
            "Inés Calderón, NP"
        ])
    ));
}

fn care_mail(g: &mut Gen, b: &mut B) {
    let p = g.patient(1930, 2000);
    let (clinic, dom) = g.clinic();
    let (full, short) = STAFF[g.r.below(STAFF.len())];
    let local = full.split(' ').next().unwrap_or("x").to_lowercase();
    let local = ascii(&local);
    let sent = g.visit_day();
    b.t(&format!("From: {full} <"))
        .l(Kind::Email, &format!("{local}@{dom}"))
        .t(">\nTo: Care Coordination <")
        .l(Kind::Email, "carecoord@stadalbert.org")
        .t(&format!(">\nDate: {}, ", g.r.pick(WEEKDAYS)));
    let d = g.date(sent);
    b.l(Kind::Date, &d)
        .t(&format!(" {}\nSubject: TOC - ", g.time()))
        .l(
            Kind::Person,
            &format!("{}, {}.", p.last, p.first.chars().next().unwrap_or('X')),
        )
        .t("\n\nHi team,\n\nForwarding for ");
    g.name(b, &p);
    b.t(" (DOB ");
    let dob = g.date(p.dob);
    b.l(Kind::Date, &dob).t(&format!(", {} ", g.mrn_label()));
    let m = g.mrn();
    b.l(Kind::Mrn, &m).t("), discharged from ");
    b.t(g.r.pick(&[
        "St. Adalbert Medical Center",
        "Maple Court Care Center",
        "Mercy West",
    ]))
    .t(" on ");
    let day = g.visit_day();
    let dd = g.date(day);
    b.l(Kind::Date, &dd).t(&format!(
        ". Needs PCP f/u within 7 days and a med rec ({}). ",
        g.r.pick(MEDS)
    ));
    b.t(&format!("{} ", if p.female { "Her" } else { "His" }))
        .t(g.r.pick(RELATIONS))
        .t(" ");
    let who = g.other();
    b.l(Kind::Person, &who).t(" is the best contact at ");
    let ph = g.phone();
    b.l(Kind::Phone, &ph).t(".\n");
    if g.r.chance(50) {
        b.t("Please fax the records to ");
        let f = g.phone();
        b.l(Kind::Fax, &f).t(&format!(" attn: {short}.\n"));
    }
    if g.r.chance(30) {
        b.t("New address on file: ");
        g.write_address(b, true);
        b.t(".\n");
    }
    b.t(&format!("\nThanks,\n{full}\n{clinic} | Ph "));
    let ph = g.phone();
    b.l(Kind::Phone, &ph).t(" | Fax ");
    let f = g.phone();
    b.l(Kind::Fax, &f).t("\n");
}

fn ems_run(g: &mut Gen, b: &mut B) {
    let p = g.patient(1922, 2005);
    let on = g.visit_day();
    b.t(&format!(
        "PATIENT CARE REPORT — Medic {}  Station {}\nIncident date: ",
        g.r.range(1, 30),
        g.r.range(1, 12)
    ));
    let d = g.date(on);
    b.l(Kind::Date, &d).t(&format!(
        "  Dispatched {}  On scene {}  Transport {}\nLocation: ",
        g.time(),
        g.time(),
        g.time()
    ));
    let (street, city, _, _) = g.address();
    b.l(Kind::Address, &street)
        .t(", ")
        .l(Kind::Address, city)
        .t(&format!(
            " ({})\nPt: ",
            g.r.pick(&["residence", "roadway", "parking lot"])
        ));
    b.l(Kind::Person, &format!("{}, {}", p.last, p.first));
    b.t("   Age ");
    write_age(b, age_at(p.dob, on));
    b.t("   DOB ");
    let dob = g.date(p.dob);
    b.l(Kind::Date, &dob).t("\n");
    if g.r.chance(35) {
        b.t("MVC, restrained driver. Pt vehicle plate ")
            .l(
                Kind::Vehicle,
                &format!("{}{}{}", g.r.digits(1), g.r.letters(3), g.r.digits(3)),
            )
            .t(", moderate front damage.\n");
    } else {
        b.t(&format!("CC: {}.\n", g.r.pick(COMPLAINTS)));
    }
    b.t(&format!("Hx per {} ", g.r.pick(RELATIONS)));
    let who = g.other();
    b.l(Kind::Person, &who).t(&format!(
        ": {}. Meds: {}.\nVitals {}: BP {}/{} HR {} RR {} SpO2 {}% GCS {} BGL {}\n",
        g.r.pick(&["HTN, CHF", "DM2", "seizures", "none known", "COPD on 2L"]),
        g.r.pick(MEDS),
        g.time(),
        g.r.range(70, 200),
        g.r.range(40, 110),
        g.r.range(40, 150),
        g.r.range(8, 32),
        g.r.range(80, 100),
        g.r.range(8, 15),
        g.r.range(50, 400)
    ));
    b.t("Tx: NS 500 mL IV, ondansetron 4 mg IV. Transported to St. Adalbert Medical Center ED, report to RN, pt placed in ");
    g.room(b);
    b.t(".\n");
    if g.r.chance(40) {
        let (what, sn) = g.device();
        b.t(&format!("Pt's {what} (SN "))
            .l(Kind::Device, &sn)
            .t(") transported with pt.\n");
    }
    b.t("Crew: P. Whitacre, EMT-P; Felix Amankwah, RN\n");
}

fn social_work(g: &mut Gen, b: &mut B) {
    let p = g.patient(1935, 2004);
    let on = g.visit_day();
    b.t("SOCIAL WORK PROGRESS NOTE  ");
    let d = g.date(on);
    b.l(Kind::Date, &d).t("\nPt ");
    g.name(b, &p);
    b.t(", ");
    write_age(b, age_at(p.dob, on));
    b.t(&format!(" y/o, {} ", g.mrn_label()));
    let m = g.mrn();
    b.l(Kind::Mrn, &m).t(", ");
    g.room(b);
    b.t(".\n");
    b.t(&format!("Met with pt and {} ", g.r.pick(RELATIONS)));
    let who = g.other();
    b.l(Kind::Person, &who)
        .t(" re: discharge plan. Pt was living at ");
    let (street, city, st, zip) = g.address();
    b.l(Kind::Address, &street)
        .t(" in ")
        .l(Kind::Address, city)
        .t(&format!(", {st} "))
        .l(Kind::Zip, &zip)
        .t(" until eviction last month.\n");
    b.t("Medicaid ID ");
    let mem = g.member();
    b.l(Kind::HealthPlan, &mem).t(" active. ");
    if g.r.chance(60) {
        b.t("Pt lacks photo ID; expired DL# ")
            .l(
                Kind::License,
                &format!("{}{}", g.r.letters(1), g.r.digits(8)),
            )
            .t(". SSN ");
        let s = g.ssn();
        b.l(Kind::Ssn, &s).t(" verified with SSA.");
    }
    b.t(&format!(
        "\nPt reports the price of rent went up and {} cannot pay the bill. Referred to Meals on \
         Wheels and Hope House shelter intake.\n",
        p.he()
    ));
    b.t(&format!(
        "Plan: f/u {} in Conference Room B. ",
        g.r.pick(WEEKDAYS)
    ))
    .t("Pt's cell: ");
    let ph = g.phone();
    b.l(Kind::Phone, &ph).t(&format!(
        "\nRashida Bellamy, MSW  ({} minutes)\n",
        g.r.range(15, 90)
    ));
}

fn dme_order(g: &mut Gen, b: &mut B) {
    let p = g.patient(1930, 1990);
    b.t(&format!(
        "DME ORDER — Keystone Medical Supply   PO {}\nPatient: ",
        g.r.digits(8)
    ));
    b.l(
        Kind::Person,
        &format!(
            "{}, {} {}",
            p.last.to_uppercase(),
            p.first.to_uppercase(),
            p.mid
        ),
    )
    .t("   DOB: ");
    let dob = g.date(p.dob);
    b.l(Kind::Date, &dob).t(&format!(
        "   Ht {}'{}\" Wt {} lb\nShip to: ",
        g.r.range(4, 6),
        g.r.range(0, 11),
        g.r.range(98, 340)
    ));
    g.write_address(b, true);
    b.t("\nPhone: ");
    let ph = g.phone();
    b.l(Kind::Phone, &ph).t("\nItem: ");
    b.t(g.r.pick(&[
        "CPAP E0601 w/ heated humidifier E0562, full face mask A7030",
        "Hospital bed semi-electric E0260, mattress E0277",
        "Standard wheelchair K0001, 18\" seat",
        "Oxygen concentrator E1390, 2 L/min continuous",
        "Rolling walker E0143",
    ]));
    let (what, sn) = g.device();
    b.t(&format!("\nReplaces {what} serial # "))
        .l(Kind::Device, &sn);
    b.t(&format!(
        "\nDx: {}   Length of need: 99 months\nIns: {} ID ",
        g.r.pick(&["G47.33", "J44.9", "R26.81", "I50.22"]),
        g.r.pick(PLANS)
    ));
    let mem = g.member();
    b.l(Kind::HealthPlan, &mem).t("   Acct ");
    let a = g.account();
    b.l(Kind::Account, &a).t("\n");
    if g.r.chance(40) {
        b.t("Copay on card ");
        let c = g.card();
        b.l(Kind::Card, &c).t(&format!(
            " exp {:02}/{}\n",
            g.r.range(1, 12),
            g.r.range(26, 30)
        ));
    }
    b.t(&format!(
        "Ordering: Dr. Fairweather, NPI 1{}\nSigned ",
        g.r.digits(9)
    ));
    let day = g.visit_day();
    let d = g.date(day);
    b.l(Kind::Date, &d).t("\n");
}

fn ltc_update(g: &mut Gen, b: &mut B) {
    let p = g.patient(1921, 1945);
    let on = g.visit_day();
    let fam = g.other();
    let fam_first = fam.split(' ').next().unwrap_or("").to_string();
    b.t("Dear ").l(Kind::Person, &fam_first).t(",\n\n");
    let staff =
        g.r.pick(&["Teresa Vo", "Felix Amankwah", "Camille Dufresne"]);
    b.t(&format!(
        "This is {staff} from Maple Court Care Center with an update on your {}, ",
        if p.female { "mother" } else { "father" }
    ));
    g.name(b, &p);
    b.t(" (");
    g.room(b);
    b.t(", Magnolia Wing).\n");
    // The birthday this year, so the age is the year's difference.
    let age = on.0 - p.dob.0;
    b.t(&format!("{} turned ", if p.female { "She" } else { "He" }));
    write_age(b, age);
    b.t(" on ");
    let bd = (on.0, p.dob.1, p.dob.2);
    let bds = g.date(bd);
    b.l(Kind::Date, &bds).t(&format!(
        " and we celebrated in the Family Lounge with {} favorite white cake. ",
        p.his()
    ));
    b.t(&format!(
        "{} weight is stable at {} lb and {} has joined the Summer Sing-Along on {}s.\n",
        if p.female { "Her" } else { "His" },
        g.r.range(96, 190),
        p.he(),
        g.r.pick(WEEKDAYS)
    ));
    b.t(&format!(
        "Dr. Deshpande increased donepezil to 10 mg nightly {}. No falls since the last update.\n",
        g.r.pick(RELATIVE)
    ));
    b.t("Our care conference is ");
    let day = g.visit_day();
    let cc = g.date(day);
    b.l(Kind::Date, &cc).t(&format!(
        " at {} in Conference Room B; you can also join by phone.\n",
        g.time()
    ));
    b.t("Please call me at ");
    let ph = g.phone();
    b.l(Kind::Phone, &ph).t(" or reply to ");
    let local = ascii(staff.split(' ').next().unwrap_or("x")).to_lowercase();
    b.l(Kind::Email, &format!("{local}@maplecourtcare.com"))
        .t(".\n\nWarmly,\n")
        .t(staff)
        .t("\n");
    if g.r.chance(40) {
        b.t("cc: ");
        let other = g.other();
        b.l(Kind::Person, &other).t(" (POA), ");
        let e = g.email(&p);
        b.l(Kind::Email, &e).t("\n");
    }
}

fn pediatric(g: &mut Gen, b: &mut B) {
    let p = g.patient(2019, 2025);
    let on = (p.dob.0 + 1, g.r.range(1, 12), g.r.range(1, 28));
    b.t(&format!(
        "Prairie Sky Pediatrics — Well-Child Visit ({} mo)\nDate: ",
        g.r.pick(&["12", "15", "18", "24", "30"])
    ));
    let d = g.date(on);
    b.l(Kind::Date, &d).t("\nPt: ");
    g.name(b, &p);
    b.t("   DOB ");
    let dob = g.date(p.dob);
    b.l(Kind::Date, &dob).t(&format!("   {} ", g.mrn_label()));
    let m = g.mrn();
    b.l(Kind::Mrn, &m).t("\nAccompanied by mother ");
    let mom = format!(
        "{} {}",
        g.r.pick(FIRST_F),
        if g.r.chance(60) {
            p.last
        } else {
            g.r.pick(LAST)
        }
    );
    b.l(Kind::Person, &mom);
    if g.r.chance(60) {
        let dad_first = g.r.pick(FIRST_M);
        b.t(" and father ")
            .l(Kind::Person, &format!("{dad_first} {}", p.last));
    }
    b.t(". Mom's cell ");
    let ph = g.phone();
    b.l(Kind::Phone, &ph).t(&format!(
        ".\nGrowth: wt {}.{} kg ({}th %ile), length {} cm. Little Sprouts daycare 3 days/wk.\n",
        g.r.range(8, 15),
        g.r.range(0, 9),
        g.r.range(5, 95),
        g.r.range(70, 95)
    ));
    b.t(&format!(
        "Vaccines today: DTaP #4 lot {}{}, Hep A #1. VIS given. {}\n",
        g.r.letters(1),
        g.r.digits(5),
        g.lookalike()
    ));
    if g.r.chance(40) {
        b.t("Dad (Mr. ")
            .l(Kind::Person, p.last)
            .t(") asks about the young sibling's rash; advised separate visit.\n");
    }
    b.t("Next WCC in 6 months. Inés Calderón, NP\n");
}

fn tele_chat(g: &mut Gen, b: &mut B) {
    let p = g.patient(1940, 2006);
    let on = g.visit_day();
    let staff =
        g.r.pick(&["Dr. Kulkarni", "Inés Calderón, NP", "Dr. Aalto"]);
    let h = g.r.range(8, 17);
    let mut m = g.r.range(0, 40);
    let mut stamp = |g: &mut Gen| {
        m += g.r.range(0, 2);
        format!("[{h:02}:{m:02}] ")
    };
    let s = stamp(g);
    b.t(&s).t("System: Video visit started for ");
    b.l(Kind::Person, &p.full()).t(" on ");
    let d = g.date(on);
    b.l(Kind::Date, &d).t(". Client IP ");
    b.l(
        Kind::Ip,
        &format!(
            "{}.{}.{}.{}",
            g.r.range(24, 99),
            g.r.range(0, 255),
            g.r.range(0, 255),
            g.r.range(1, 254)
        ),
    )
    .t("\n");
    let s = stamp(g);
    b.t(&s)
        .t(&format!("{staff}: Hi "))
        .l(Kind::Person, p.first)
        .t(", can you confirm your date of birth?\n");
    let s = stamp(g);
    b.t(&s).l(Kind::Person, p.first).t(": ");
    let dob = g.date(p.dob);
    b.l(Kind::Date, &dob).t("\n");
    let s = stamp(g);
    b.t(&s).t(&format!(
        "{staff}: thank you. best number if we get cut off?\n"
    ));
    let s = stamp(g);
    b.t(&s).l(Kind::Person, p.first).t(": ");
    let ph = g.phone();
    b.l(Kind::Phone, &ph).t(if g.r.chance(50) {
        " its my cell\n"
    } else {
        "\n"
    });
    let s = stamp(g);
    b.t(&s).l(Kind::Person, p.first).t(&format!(
        ": the rash is worse since {} and it itches at night\n",
        g.r.pick(WEEKDAYS)
    ));
    let s = stamp(g);
    b.t(&s).t(&format!(
        "{staff}: ok. I'm sending triamcinolone 0.1% cream, apply BID x 14 days. \
         Which pharmacy?\n"
    ));
    let s = stamp(g);
    b.t(&s).l(Kind::Person, p.first).t(": the walgreens on ");
    let (street, _, _, _) = g.address();
    // Where the patient fills prescriptions says where they live: labelled, conservatively.
    b.l(Kind::Address, &street)
        .t(". also can you email the note to ");
    let e = g.email(&p);
    b.l(Kind::Email, &e).t(" for my work\n");
    if g.r.chance(50) {
        let s = stamp(g);
        b.t(&s).l(Kind::Person, p.first).t(": my husband ");
        let who = g.other();
        b.l(Kind::Person, &who)
            .t(" needs an appt too, can he get one for ");
        let day = g.visit_day();
        let dd = g.date(day);
        b.l(Kind::Date, &dd).t("?\n");
    }
    let s = stamp(g);
    b.t(&s)
        .t("System: Visit ended. Duration 14 min. CPT 99213-95.\n");
}

/// OCR noise: `l` for `1`, `0` for `O`, a space inside a word.
fn ocr(g: &mut Gen, s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        let c = match c {
            '1' if g.r.chance(40) => 'l',
            'O' if g.r.chance(40) => '0',
            '0' if g.r.chance(15) => 'O',
            c => c,
        };
        out.push(c);
        if c.is_alphanumeric() && g.r.chance(6) {
            out.push(' ');
        }
    }
    out.trim_end().to_string()
}

fn ocr_form(g: &mut Gen, b: &mut B) {
    let p = g.patient(1930, 2005);
    let head = ocr(g, "PATIENT  REGISTRATION  FORM   (please print)");
    b.t(&head).t("\n");
    let t = ocr(g, "Patient Name:");
    b.t(&t).t("  ");
    let n = ocr(
        g,
        &format!("{} {}", p.first.to_uppercase(), p.last.to_uppercase()),
    );
    b.l(Kind::Person, &n);
    let t = ocr(g, "   Date of Birth:");
    b.t(&t).t(" ");
    let dob = format!("{:02}/{:02}/{}", p.dob.1, p.dob.2, p.dob.0);
    let dob = ocr(g, &dob);
    b.l(Kind::Date, &dob).t("\n");
    let t = ocr(g, "Address:");
    b.t(&t).t("   ");
    let (street, city, st, zip) = g.address();
    let street = ocr(g, &street);
    b.l(Kind::Address, &street).t("  ");
    let city = ocr(g, city);
    b.l(Kind::Address, &city).t(&format!("  {st}  "));
    let zip = ocr(g, &zip);
    b.l(Kind::Zip, &zip).t("\n");
    let t = ocr(g, "Home Phone:");
    b.t(&t).t(" ");
    let ph = g.phone();
    let ph = ocr(g, &ph);
    b.l(Kind::Phone, &ph);
    let t = ocr(g, "    Soc. Sec. #:");
    b.t(&t).t(" ");
    let s = g.ssn();
    let s = ocr(g, &s);
    b.l(Kind::Ssn, &s).t("\n");
    let t = ocr(g, "Insurance Co:");
    b.t(&t).t(&format!(" {}    ", g.r.pick(PLANS)));
    let t = ocr(g, "ID #:");
    b.t(&t).t(" ");
    let mem = g.member();
    let mem = ocr(g, &mem);
    b.l(Kind::HealthPlan, &mem).t("\n");
    let t = ocr(g, "Responsible party:");
    b.t(&t).t(" ");
    let who = g.other().to_uppercase();
    let who = ocr(g, &who);
    b.l(Kind::Person, &who)
        .t(&format!("  ({})\n", g.r.pick(RELATIONS)));
    let t = ocr(g, "Account No.");
    b.t(&t).t(" ");
    let a = g.account();
    let a = ocr(g, &a);
    b.l(Kind::Account, &a).t("\n");
    let t = ocr(g, "Signature ____________________   Date");
    b.t(&t).t(" ");
    let on = g.visit_day();
    let d = format!("{}/{}/{}", on.1, on.2, on.0);
    let d = ocr(g, &d);
    b.l(Kind::Date, &d).t("\n");
    let foot = ocr(
        g,
        "Riverbend Family Health  Form RFH-102 (rev 2019)  page 1 of 2",
    );
    b.t(&foot).t("\n");
}

fn sheet_tab(g: &mut Gen, b: &mut B) {
    b.t("Name\tDOB\tMRN\tPhone\tLast visit\tProvider\tNext appt\tNotes\n");
    let rows = g.r.range(3, 7);
    for _ in 0..rows {
        let p = g.patient(1935, 2010);
        if g.r.chance(50) {
            b.l(Kind::Person, &format!("{}, {}", p.last, p.first));
        } else {
            b.l(Kind::Person, &p.full());
        }
        b.t("\t");
        let dob = format!("{}/{}/{}", p.dob.1, p.dob.2, p.dob.0);
        b.l(Kind::Date, &dob).t("\t");
        let m = g.mrn();
        b.l(Kind::Mrn, &m).t("\t");
        let ph = g.phone();
        b.l(Kind::Phone, &ph).t("\t");
        let v = g.visit_day();
        let v = format!("{}/{}/{}", v.1, v.2, v.0);
        b.l(Kind::Date, &v).t("\t");
        b.t(g.r.pick(&["Kulkarni", "Calderón NP", "Aalto", "Deshpande"]))
            .t("\t");
        if g.r.chance(70) {
            let n = g.visit_day();
            let n = format!("{}/{}/{}", n.1, n.2, n.0);
            b.l(Kind::Date, &n);
        }
        b.t("\t");
        b.t(g.r.pick(&[
            "needs A1c",
            "bill to Medicaid",
            "LVM x2",
            "Spanish interpreter",
            "long visit - 40 min",
            "no show 1x",
            "",
            "rx refill pending",
        ]))
        .t("\n");
    }
}

fn sms(g: &mut Gen, b: &mut B) {
    let n = g.r.range(2, 4);
    for _ in 0..n {
        let p = g.patient(1940, 2008);
        let (clinic, _) = g.clinic();
        b.t("To: ");
        let ph = g.phone();
        b.l(Kind::Phone, &ph).t("\n");
        let when = g.visit_day();
        let d = g.date(when);
        match g.r.below(4) {
            0 => {
                b.t(&format!("{clinic}: Hi "))
                    .l(Kind::Person, p.nick.unwrap_or(p.first))
                    .t(", reminder of your appt w/ Dr. Kulkarni on ")
                    .l(Kind::Date, &d)
                    .t(&format!(
                        " at {}. Reply C to confirm, R to reschedule. Questions? ",
                        g.time()
                    ));
                let c = g.phone();
                b.l(Kind::Phone, &c);
            }
            1 => {
                b.t(&format!("{clinic}: "))
                    .l(Kind::Person, &p.full())
                    .t(" has an appointment ");
                b.t(g.r.pick(&["tmrw", "tomorrow", "on Thursday", "next Mon"]))
                    .t(". Arrive 15 min early. Txt STOP to opt out");
            }
            2 => {
                b.t("Your lab results from ")
                    .l(Kind::Date, &d)
                    .t(" are ready in the portal. Log in as ");
                let e = g.email(&p);
                b.l(Kind::Email, &e).t(". Do not reply to this msg.");
            }
            _ => {
                b.t(&format!("Hi this is Teresa from {clinic}. "))
                    .l(Kind::Person, p.first)
                    .t(&format!(
                        "'s rx for {} is ready for pickup. Ref ",
                        g.r.pick(MEDS)
                    ))
                    .t(&g.r.digits(6))
                    .t(".");
            }
        }
        b.t(&format!("\nSent {}\n\n", g.time()));
    }
}

const SPOKEN_DIGITS: [&str; 10] = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
];
const ORDINAL_WORDS: [&str; 29] = [
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
    "twentieth",
    "twenty-first",
    "twenty-second",
    "twenty-third",
    "twenty-fourth",
    "twenty-fifth",
    "twenty-sixth",
    "twenty-seventh",
    "twenty-eighth",
];

fn spoken_digits(s: &str) -> String {
    s.chars()
        .filter_map(|c| c.to_digit(10))
        .map(|d| SPOKEN_DIGITS[d as usize])
        .collect::<Vec<_>>()
        .join(" ")
}

fn dictation(g: &mut Gen, b: &mut B) {
    let p = g.patient(1925, 2005);
    let on = g.visit_day();
    b.t("this is doctor Aalto dictating a clinic note on patient ")
        .l(Kind::Person, &p.full().to_lowercase());
    if g.r.chance(40) {
        let spelled: Vec<String> = ascii(p.last)
            .to_uppercase()
            .chars()
            .map(String::from)
            .collect();
        b.t(" comma last name spelled ")
            .l(Kind::Person, &spelled.join(" "));
    }
    b.t(" period date of birth ");
    if g.r.chance(50) {
        b.l(
            Kind::Date,
            &format!(
                "{} {} {}",
                MONTHS[p.dob.1 as usize - 1].to_lowercase(),
                ORDINAL_WORDS[p.dob.2 as usize],
                p.dob.0
            ),
        );
    } else {
        let d = g.date(p.dob);
        b.l(Kind::Date, &d);
    }
    b.t(" period medical record number ");
    let m = g.r.digits(8);
    if g.r.chance(50) {
        b.l(Kind::Mrn, &spoken_digits(&m));
    } else {
        b.l(Kind::Mrn, &m);
    }
    b.t(" period date of service ");
    let d = g.date(on);
    b.l(Kind::Date, &d).t(" period new paragraph\n");
    b.t("history of present illness colon the patient is a ");
    write_age(b, age_at(p.dob, on));
    b.t(&format!(
        " year old {} seen today for follow up of {} comma accompanied by {} ",
        if p.female { "woman" } else { "man" },
        g.r.pick(&[
            "hypertension",
            "diabetes",
            "COPD",
            "low back pain",
            "atrial fibrillation"
        ]),
        g.r.pick(RELATIONS)
    ));
    let who = g.other();
    b.l(Kind::Person, &who.to_lowercase()).t(&format!(
        " period blood pressure {} over {} comma pulse {} period\n",
        g.r.range(100, 170),
        g.r.range(60, 100),
        g.r.range(50, 110)
    ));
    b.t(&format!(
        "continue {} period the patient can be reached at ",
        g.r.pick(MEDS)
    ));
    let ph = g.phone();
    if g.r.chance(40) {
        b.l(Kind::Phone, &spoken_digits(&ph));
    } else {
        b.l(Kind::Phone, &ph);
    }
    b.t(&format!(
        " period return in {} weeks period end of dictation\n",
        g.r.range(2, 12)
    ));
}

/// `n` documents from `seed`, families in turn.
pub fn generate(seed: u64, n: usize) -> Set {
    let mut g = Gen {
        r: Rng(seed),
        roster: Vec::new(),
        patients: 0,
    };
    let mut docs = Vec::with_capacity(n);
    for i in 0..n {
        let family = FAMILIES[i % FAMILIES.len()];
        let mut b = B::default();
        match family {
            "ed_triage" => ed_triage(&mut g, &mut b),
            "home_health" => home_health(&mut g, &mut b),
            "dental" => dental(&mut g, &mut b),
            "behavioral" => behavioral(&mut g, &mut b),
            "care_mail" => care_mail(&mut g, &mut b),
            "ems_run" => ems_run(&mut g, &mut b),
            "social_work" => social_work(&mut g, &mut b),
            "dme_order" => dme_order(&mut g, &mut b),
            "ltc_update" => ltc_update(&mut g, &mut b),
            "pediatric" => pediatric(&mut g, &mut b),
            "tele_chat" => tele_chat(&mut g, &mut b),
            "ocr_form" => ocr_form(&mut g, &mut b),
            "sheet_tab" => sheet_tab(&mut g, &mut b),
            "sms" => sms(&mut g, &mut b),
            _ => dictation(&mut g, &mut b),
        }
        docs.push(Doc {
            family,
            text: b.text,
            labels: b.labels,
        });
    }
    let mut keep: Vec<String> = STAFF.iter().map(|s| s.0.to_string()).collect();
    keep.extend(CLINICS.iter().map(|c| c.0.to_string()));
    keep.extend(
        [
            "Mercy West",
            "Little Sprouts",
            "Hope House",
            "Magnolia Wing",
            "Family Lounge",
        ]
        .map(String::from),
    );
    Set {
        docs,
        roster: g.roster,
        keep,
    }
}
