//! The second blind evaluation set for the PHI redactor (issue 29): a seeded, deterministic
//! generator of US hospital, clinic and business writing, written without reading the
//! redactor's rules, its word lists or the other evaluation sets. Every identifier is labelled
//! with its kind and byte span.
//!
//! Labelling conventions (fixed before the redactor was ever run on the set):
//! - Names of patients, relatives, outside providers and vendor contacts are `Person`; the
//!   practice's own staff and its sites are in `keep` and stay unlabelled. A name written with
//!   punctuation between its parts ("Okafor, Margaret", `OKAFOR^MARGARET`, `okafor_margaret`)
//!   gets one label per part; a middle initial and a title stay outside the labels, so either
//!   a whole-name span or one span per part counts as found.
//! - Every phone and fax number and every e-mail address is labelled (also a pharmacy's or the
//!   practice's own: a detector cannot tell whose it is); every day-precision date is a `Date`
//!   (birth, admission, visit, collection, mail headers). Years alone, weekdays, relative dates
//!   and times are not labelled, and month/year forms are not written at all.
//! - Ages are labelled only from 90 up (Safe Harbor); younger ages are written and unlabelled.
//! - Record numbers: MRNs `Mrn`; account, visit, claim, accession, prescription and prior-auth
//!   reference numbers `Account`; member / subscriber / Medicare ids `HealthPlan`; device
//!   serials `Device`; room and bed numbers `Room` (only the number, not "Rm" or the unit).
//! - Street lines and cities of a person's address are `Address`, ZIP and ZIP+4 `Zip`; states
//!   stay unlabelled.
//! - Lookalikes that must stay readable: order / PO / invoice / SKU / NDC / lot numbers, a
//!   lab's client number, message control ids, LOINC, CPT and ICD-10 codes, dosages, vitals,
//!   lab values, times, suite numbers, eponyms (Foley, Doppler), drugs, insurers, clinic names.

use opsdesk::governance::redact::Kind;

use crate::redaction_harness::{Doc, Label, Set};

pub const FAMILIES: [&str; 16] = [
    "discharge",
    "handoff",
    "refill",
    "labmail",
    "radiology",
    "priorauth",
    "hl7",
    "export",
    "portal",
    "voicemail",
    "teams",
    "schedule",
    "billing",
    "filenames",
    "signature",
    "forward",
];

// ---------------------------------------------------------------------------------------------
// Randomness: SplitMix64, so the set never depends on a crate's generator changing.

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
    /// Inclusive range.
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
        // No I or O: ids avoid them so they are not read as 1 and 0.
        const L: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ";
        (0..n).map(|_| char::from(L[self.below(L.len())])).collect()
    }
}

// ---------------------------------------------------------------------------------------------
// Fragments and the document builder.

/// Text pieces, each labelled or not.
#[derive(Clone, Default)]
struct Frag(Vec<(Option<Kind>, String)>);

fn t(s: impl Into<String>) -> Frag {
    Frag(vec![(None, s.into())])
}

fn l(kind: Kind, s: impl Into<String>) -> Frag {
    Frag(vec![(Some(kind), s.into())])
}

impl Frag {
    fn and(mut self, o: Frag) -> Frag {
        self.0.extend(o.0);
        self
    }
}

fn join(parts: &[Frag], sep: &str) -> Frag {
    let mut out = Frag::default();
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            out = out.and(t(sep));
        }
        out = out.and(p.clone());
    }
    out
}

#[derive(Clone, Copy, PartialEq)]
enum Case {
    As,
    Lower,
    Upper,
    /// Upper case with diacritics left out, as many HL7 feeds and registries write names.
    UpperAscii,
}

fn fold(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'á' | 'à' | 'â' | 'ä' | 'ã' | 'å' | 'ā' | 'ạ' | 'ầ' | 'ặ' => 'a',
            'Á' | 'À' | 'Â' | 'Ä' | 'Ã' | 'Å' => 'A',
            'é' | 'è' | 'ê' | 'ë' | 'ě' | 'ễ' | 'ệ' => 'e',
            'É' | 'È' | 'Ê' | 'Ë' => 'E',
            'í' | 'ì' | 'î' | 'ï' | 'ı' => 'i',
            'Í' | 'Î' => 'I',
            'ó' | 'ò' | 'ô' | 'ö' | 'õ' | 'ø' | 'ő' | 'ọ' | 'ơ' => 'o',
            'Ó' | 'Ö' | 'Ø' => 'O',
            'ú' | 'ù' | 'û' | 'ü' | 'ű' | 'ư' => 'u',
            'Ú' | 'Ü' => 'U',
            'ñ' | 'ń' => 'n',
            'ç' | 'ć' | 'č' => 'c',
            'Ç' | 'Č' => 'C',
            'ş' | 'ś' | 'š' => 's',
            'Ş' | 'Ś' | 'Š' => 'S',
            'ł' => 'l',
            'Ł' => 'L',
            'ż' | 'ź' | 'ž' => 'z',
            'ğ' => 'g',
            'ř' => 'r',
            'đ' => 'd',
            'Đ' => 'D',
            other => other,
        })
        .collect()
}

impl Case {
    fn apply(self, s: &str) -> String {
        match self {
            Case::As => s.to_string(),
            Case::Lower => s.to_lowercase(),
            Case::Upper => s.to_uppercase(),
            Case::UpperAscii => fold(s).to_uppercase(),
        }
    }
}

struct B {
    text: String,
    labels: Vec<Label>,
    case: Case,
}

impl B {
    fn new() -> B {
        B {
            text: String::new(),
            labels: Vec::new(),
            case: Case::As,
        }
    }

    fn push(&mut self, f: &Frag) {
        for (kind, s) in &f.0 {
            let s = self.case.apply(s);
            let start = self.text.len();
            self.text.push_str(&s);
            if let Some(kind) = kind {
                assert!(!s.trim().is_empty(), "an empty label of {kind:?}");
                self.labels.push(Label {
                    kind: *kind,
                    start,
                    end: self.text.len(),
                });
            }
        }
    }

    fn s(&mut self, s: &str) {
        self.push(&t(s));
    }

    /// Appends `tpl` with each `{}` replaced by the next fragment.
    fn f(&mut self, tpl: &str, args: &[Frag]) {
        let mut parts = tpl.split("{}");
        let first = parts.next().unwrap_or_default();
        self.s(first);
        let mut n = 0;
        for part in parts {
            let arg = args
                .get(n)
                .unwrap_or_else(|| panic!("too few args for {tpl:?}"));
            self.push(arg);
            self.s(part);
            n += 1;
        }
        assert_eq!(n, args.len(), "too many args for {tpl:?}");
    }

    /// Like `f`, the whole line in `case`.
    fn fc(&mut self, case: Case, tpl: &str, args: &[Frag]) {
        let was = self.case;
        self.case = case;
        self.f(tpl, args);
        self.case = was;
    }

    fn done(self, family: &'static str) -> Doc {
        Doc {
            family,
            text: self.text,
            labels: self.labels,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Pools, written for this set.

const FEMALE: &[(&str, Option<&str>)] = &[
    ("Zoë", None),
    ("Anaïs", None),
    ("María José", Some("Majo")),
    ("Ana-Maria", Some("Ani")),
    ("Guadalupe", Some("Lupe")),
    ("Ngozi", None),
    ("Oluwakemi", Some("Kemi")),
    ("Siobhán", None),
    ("Aoife", None),
    ("Mei-Ling", None),
    ("Xiaoling", Some("Ling")),
    ("Hyun-joo", None),
    ("Priyanka", Some("Pri")),
    ("Lakshmi", None),
    ("Fatima Zahra", None),
    ("Amira", None),
    ("Leilani", None),
    ("Yesenia", None),
    ("Dolores", Some("Lola")),
    ("Bernadette", Some("Bernie")),
    ("Gertrude", Some("Trudy")),
    ("Eunice", None),
    ("Agnieszka", Some("Aga")),
    ("Małgorzata", Some("Gosia")),
    ("Ingrid", None),
    ("Renée", None),
    ("Inês", None),
    ("Bích Ngọc", None),
    ("Wanjiru", None),
    ("Tsehay", None),
    ("Marisol", None),
    ("Consuelo", Some("Chelo")),
    ("Shanice", None),
    ("DeShawna", None),
    ("LaTonya", Some("Tonya")),
    ("Kayleigh", None),
    ("Ruth Ann", None),
    ("Esther", None),
    ("Ayşe", None),
    ("Svetlana", Some("Sveta")),
    ("Oksana", None),
    ("Rukhsana", None),
    ("Parisa", None),
    ("Keiko", None),
    ("Aroha", None),
    ("Elizabeth", Some("Betsy")),
    ("Margaret", Some("Peggy")),
    ("Dorothy", Some("Dot")),
    ("Wilhelmina", Some("Billie")),
    ("Patricia", Some("Trish")),
    ("Nkechi", None),
    ("Thandiwe", None),
    ("Ximena", None),
    ("Itzel", None),
    ("Rosalind", Some("Roz")),
    ("Noor", None),
    ("Yael", None),
    ("Saoirse", None),
];

const MALE: &[(&str, Option<&str>)] = &[
    ("José Luis", Some("Pepe")),
    ("Juan Carlos", None),
    ("Jean-Baptiste", Some("JB")),
    ("François", None),
    ("Jürgen", None),
    ("Łukasz", None),
    ("Bartholomew", Some("Bart")),
    ("Chukwuemeka", Some("Emeka")),
    ("Oluwaseun", Some("Seun")),
    ("Kwame", None),
    ("Tadesse", None),
    ("Abdullah", None),
    ("Mohammed", Some("Mo")),
    ("Tariq", None),
    ("Rajesh", Some("Raj")),
    ("Venkatesh", Some("Venky")),
    ("Hyun-woo", None),
    ("Jae-sung", None),
    ("Wei", None),
    ("Thanh", None),
    ("Keoni", None),
    ("Santiago", Some("Santi")),
    ("Ignacio", Some("Nacho")),
    ("Sebastián", None),
    ("Tomás", None),
    ("Dmitri", Some("Dima")),
    ("Aleksandr", Some("Sasha")),
    ("Bogdan", None),
    ("Spyridon", Some("Spiros")),
    ("Eero", None),
    ("Björn", None),
    ("Pádraig", None),
    ("Cormac", None),
    ("DeAndre", Some("Dre")),
    ("Darnell", None),
    ("Tyrone", None),
    ("Brayden", None),
    ("Harold", Some("Hal")),
    ("Virgil", None),
    ("Clyde", None),
    ("Ezekiel", Some("Zeke")),
    ("Yusuf", None),
    ("Emre", None),
    ("Kofi", None),
    ("Robert", Some("Bobby")),
    ("William", Some("Billy")),
    ("Theodore", Some("Teddy")),
    ("Francisco", Some("Paco")),
    ("Alejandro", Some("Alex")),
    ("Nnamdi", None),
    ("Ravi", None),
    ("Hamid", None),
    ("Matthias", None),
    ("Leopold", Some("Leo")),
    ("Lorenzo", Some("Enzo")),
    ("Cyrus", None),
    ("Takeshi", None),
    ("Bao", None),
];

const SURNAMES: &[&str] = &[
    "Okonkwo-Hale",
    "Adeyemi",
    "Nwachukwu",
    "Mensah",
    "Tesfaye",
    "Abara",
    "Nguyễn",
    "Trần",
    "Phạm",
    "Đặng",
    "Zhou",
    "Xu",
    "Liang",
    "Hwang",
    "Choi",
    "Yamaguchi",
    "Takahashi",
    "Venkataraman",
    "Chatterjee",
    "Bhattacharya",
    "Qureshi",
    "Al-Masri",
    "el-Amin",
    "Haddad",
    "Khoury",
    "Yılmaz",
    "Öztürk",
    "Çelik",
    "Wiśniewska",
    "Kowalczyk",
    "Szymański",
    "Dvořák",
    "Horváth",
    "Papadopoulos",
    "Georgiou",
    "Petrenko",
    "Kuznetsov",
    "Müller",
    "Schäfer",
    "Brandstätter",
    "van der Berg",
    "van Houten",
    "de Vries",
    "de la Cruz",
    "del Río",
    "García-Márquez",
    "Ibáñez",
    "Núñez",
    "Peña",
    "Villalobos",
    "Quiñones",
    "dos Santos",
    "Magalhães",
    "O'Sullivan",
    "O'Neill",
    "McGillicuddy",
    "MacAulay",
    "McKeown",
    "Fitzgerald",
    "D'Agostino",
    "DiMarco",
    "LaRue",
    "St. Pierre",
    "Thibodeaux",
    "Boudreaux",
    "Kealoha",
    "Kahananui",
    "Begaye",
    "Yazzie",
    "Tsosie",
    "Whitehorse",
    "Washington",
    "Brown",
    "Miller",
    "Baker",
    "Rivers",
    "Stone",
    "Hill",
    "Young",
    "Bishop",
    "Love",
    "Lindgren",
    "Halvorsen",
    "Sørensen",
    "Ben-David",
    "Cohen-Levi",
    "Bergstrom",
    "Kovač",
    "Mahlangu",
    "Dlamini",
    "Achterberg",
    "LeBlanc",
    "da Silva",
    "Oyelaran",
    "Osei",
    "Nakamura",
    "Ramírez",
    "Castañeda",
    "Echeverría",
    "Zúñiga",
];

/// (city, state, first three digits of its ZIP).
const CITIES: &[(&str, &str, &str)] = &[
    ("Hagerstown", "MD", "217"),
    ("Chambersburg", "PA", "172"),
    ("Wapakoneta", "OH", "458"),
    ("Española", "NM", "875"),
    ("Coeur d'Alene", "ID", "838"),
    ("Winston-Salem", "NC", "271"),
    ("St. Cloud", "MN", "563"),
    ("Port St. Lucie", "FL", "349"),
    ("Kailua-Kona", "HI", "967"),
    ("Sault Ste. Marie", "MI", "497"),
    ("Bayamón", "PR", "009"),
    ("Chillicothe", "OH", "456"),
    ("Zanesville", "OH", "437"),
    ("Altoona", "PA", "166"),
    ("Muskogee", "OK", "744"),
    ("Texarkana", "TX", "755"),
    ("Bozeman", "MT", "597"),
    ("Ypsilanti", "MI", "481"),
    ("Poughkeepsie", "NY", "126"),
    ("Hackensack", "NJ", "076"),
    ("Paducah", "KY", "420"),
    ("Natchitoches", "LA", "714"),
    ("Opelousas", "LA", "705"),
    ("Gallup", "NM", "873"),
    ("Window Rock", "AZ", "865"),
    ("Yakima", "WA", "989"),
    ("Walla Walla", "WA", "993"),
    ("Dubuque", "IA", "520"),
    ("Oshkosh", "WI", "549"),
    ("Lewiston", "ME", "042"),
    ("Brattleboro", "VT", "053"),
    ("Pawtucket", "RI", "028"),
    ("Scranton", "PA", "185"),
    ("Wilkes-Barre", "PA", "187"),
    ("Frederick", "MD", "217"),
    ("Martinsburg", "WV", "254"),
];

const STREETS: &[&str] = &[
    "Quarry Hollow",
    "Linden",
    "Old Mill",
    "Tuckahoe",
    "Sassafras",
    "Chickasaw",
    "Persimmon",
    "Kittatinny",
    "Bluebird",
    "Juniper Bend",
    "Dogwood",
    "Shawnee",
    "Wyomissing",
    "Ponce de León",
    "Kamehameha",
    "Martin Luther King Jr",
    "Cesar Chavez",
    "Hollyhock",
    "Tamarack",
    "Orchard Hill",
    "Frog Pond",
    "W Market",
    "N 5th",
    "SE 14th",
    "Elm",
    "Conococheague",
    "Buttermilk Falls",
    "Pocahontas",
];

const SUFFIXES: &[&str] = &[
    "St", "Street", "Ave", "Avenue", "Rd", "Road", "Ln", "Lane", "Dr", "Drive", "Ct", "Blvd",
    "Pkwy", "Way", "Terrace", "Cir", "Pike", "Trl",
];

const AREAS: &[&str] = &[
    "717", "412", "610", "570", "814", "240", "301", "304", "419", "937", "505", "208", "336",
    "320", "772", "808", "906", "787", "740", "918", "903", "406", "734", "845", "201", "270",
    "318", "337", "928", "509", "563", "920", "207", "802", "401",
];

const KIN: &[(&str, &str, bool)] = &[
    // (relation, the relation as the patient's family writes it, female)
    ("daughter", "dau", true),
    ("son", "son", false),
    ("wife", "wife", true),
    ("husband", "husband", false),
    ("sister", "sister", true),
    ("brother", "bro", false),
    ("niece", "niece", true),
    ("granddaughter", "granddaughter", true),
    ("partner", "partner", false),
    ("mother", "mom", true),
];

const EXT_PRACTICES: &[&str] = &[
    "Mercy Valley Cardiology",
    "Susquehanna Pulmonary Associates",
    "Blue Mountain Orthopaedics",
    "Tri-County Nephrology",
    "Lakeshore Endocrine Group",
    "Keystone Gastroenterology",
    "Allegheny Neurology Partners",
];

const DRUGS: &[&str] = &[
    "lisinopril 10 mg daily",
    "metformin 500 mg BID",
    "atorvastatin 40 mg nightly",
    "apixaban (Eliquis) 5 mg BID",
    "furosemide (Lasix) 40 mg daily",
    "levothyroxine 75 mcg daily",
    "empagliflozin (Jardiance) 10 mg daily",
    "semaglutide (Ozempic) 0.5 mg weekly",
    "amlodipine 5 mg daily",
    "sertraline 50 mg daily",
    "warfarin (Coumadin) 5 mg as directed",
    "albuterol HFA 2 puffs q4-6h PRN",
    "gabapentin 300 mg TID",
    "metoprolol succinate 25 mg daily",
    "tamsulosin 0.4 mg at bedtime",
];

const REASONS: &[(&str, &str)] = &[
    // (reason for the stay, ICD-10 code)
    ("CHF exacerbation", "I50.23"),
    ("community-acquired pneumonia", "J18.9"),
    ("COPD exacerbation", "J44.1"),
    ("NSTEMI", "I21.4"),
    ("DKA", "E11.10"),
    ("cellulitis of the left lower leg", "L03.116"),
    ("new-onset atrial fibrillation with RVR", "I48.91"),
    ("acute kidney injury", "N17.9"),
    ("GI bleed", "K92.2"),
    ("syncope", "R55"),
    ("hip fracture after a fall", "S72.001A"),
    ("sepsis from a UTI", "A41.9"),
];

/// The day of the week of a (Gregorian) date: Sakamoto's method.
fn weekday(d: Ymd) -> &'static str {
    const OFFSET: [u32; 12] = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4];
    const NAMES: [&str; 7] = [
        "Sunday",
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
    ];
    let y = if d.m < 3 { d.y - 1 } else { d.y };
    NAMES[((y + y / 4 - y / 100 + y / 400 + OFFSET[d.m as usize - 1] + d.d) % 7) as usize]
}

fn specialty(practice: &str) -> &'static str {
    match practice.split(' ').nth(1).unwrap_or_default() {
        "Valley" => "Interventional Cardiology",
        "Pulmonary" => "Pulmonary & Sleep Medicine",
        "Mountain" => "Orthopaedic Surgery",
        "Nephrology" => "Nephrology",
        "Endocrine" => "Endocrinology",
        "Gastroenterology" => "Gastroenterology",
        _ => "Neurology",
    }
}

const WEEKDAYS: &[&str] = &["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"];

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

/// Staff of the practice: (given, family, credential, short form used in chat).
const STAFF: &[(&str, &str, &str, &str)] = &[
    ("Wendell", "Ashby", "MD", "Wendell"),
    ("Beatriz", "Solano", "NP", "Bea"),
    ("Harriet", "Lindqvist", "RN", "Harriet"),
    ("Marcus", "Tolliver", "RN", "Marcus"),
    ("Jessamyn", "Pryor", "RN", "Jess"),
    ("Tomasz", "Brill", "PharmD", "Tomasz"),
    ("Renata", "Okwuosa", "CMA", "Renata"),
    ("Gideon", "Sharpe", "MD", "Gideon"),
    ("Ellie", "Vandermeer", "", "Ellie"),
    ("Dev", "Ramaswamy", "", "Dev"),
    ("Corinne", "Albright", "RN", "Corinne"),
    ("Kwabena", "Asante", "MD", "Kwabena"),
];

const SITES: &[&str] = &[
    "Ridgeline Health Partners",
    "Ridgeline Family Medicine",
    "Ridgeline Cardiology",
    "Cedar Hollow Medical Center",
    "Cedar Hollow Imaging",
];

const PRACTICE_DOMAIN: &str = "ridgelinehp.org";

// ---------------------------------------------------------------------------------------------
// People and identifiers.

#[derive(Clone, Copy)]
struct Who {
    given: &'static str,
    nick: Option<&'static str>,
    mid: Option<char>,
    family: &'static str,
    female: bool,
}

impl Who {
    fn random(r: &mut Rng) -> Who {
        let female = r.chance(52);
        let (given, nick) = r.pick(if female { FEMALE } else { MALE });
        let mid = if r.chance(40) {
            Some(char::from(b'A' + r.below(26) as u8))
        } else {
            None
        };
        Who {
            given,
            nick,
            mid,
            family: r.pick(SURNAMES),
            female,
        }
    }
    fn full(&self) -> String {
        format!("{} {}", self.given, self.family)
    }
    fn title(&self, r: &mut Rng) -> &'static str {
        if self.female {
            r.pick(&["Ms.", "Mrs.", "Ms"])
        } else {
            r.pick(&["Mr.", "Mr"])
        }
    }
}

#[derive(Clone, Copy)]
enum NF {
    Full,
    FullMid,
    LastFirst,
    First,
    Nick,
    Title,
    Initial,
    LastInit,
}

fn name(w: &Who, nf: NF, r: &mut Rng) -> Frag {
    let p = Kind::Person;
    match nf {
        NF::Full => l(p, w.full()),
        NF::FullMid => match w.mid {
            Some(m) => l(p, w.given)
                .and(t(" "))
                .and(l(p, m.to_string()))
                .and(t(". "))
                .and(l(p, w.family)),
            None => l(p, w.full()),
        },
        NF::LastFirst => l(p, w.family).and(t(", ")).and(l(p, w.given)),
        NF::First => l(p, w.given),
        NF::Nick => l(p, w.nick.unwrap_or(w.given)),
        NF::Title => t(format!("{} ", w.title(r))).and(l(p, w.family)),
        NF::Initial => l(p, initial(w.given)).and(t(". ")).and(l(p, w.family)),
        NF::LastInit => l(p, w.family).and(t(" ")).and(l(p, initial(w.given))),
    }
}

/// A name in the forms prose uses.
fn prose_name(w: &Who, r: &mut Rng) -> Frag {
    let nf = r.pick(&[NF::Full, NF::Full, NF::FullMid, NF::LastFirst, NF::Initial]);
    name(w, nf, r)
}

/// HL7 XPN: FAMILY^GIVEN (the given name's parts stay one component).
fn hl7_name(w: &Who) -> Frag {
    l(Kind::Person, w.family)
        .and(t("^"))
        .and(l(Kind::Person, w.given))
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Ymd {
    y: u32,
    m: u32,
    d: u32,
}

impl Ymd {
    fn random(r: &mut Rng, y0: u32, y1: u32) -> Ymd {
        Ymd {
            y: r.range(y0, y1),
            m: r.range(1, 12),
            d: r.range(1, 28),
        }
    }
    fn plus_days(self, n: u32) -> Ymd {
        let mut d = self;
        for _ in 0..n {
            d.d += 1;
            if d.d > 28 {
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
    fn mon(self) -> &'static str {
        &MONTHS[self.m as usize - 1][..3]
    }
    fn month(self) -> &'static str {
        MONTHS[self.m as usize - 1]
    }
}

#[derive(Clone, Copy)]
enum DS {
    Slash,
    SlashPad,
    Short2,
    Dash,
    Iso,
    DMonY,
    DMonYUp,
    MonDY,
    MonthDY,
    MonthDthY,
    DMonthY,
    Compact,
    NoYear,
}

fn ord_suffix(d: u32) -> &'static str {
    match (d % 10, d % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    }
}

fn ds(d: Ymd, s: DS) -> String {
    match s {
        DS::Slash => format!("{}/{}/{}", d.m, d.d, d.y),
        DS::SlashPad => format!("{:02}/{:02}/{}", d.m, d.d, d.y),
        DS::Short2 => format!("{}/{}/{:02}", d.m, d.d, d.y % 100),
        DS::Dash => format!("{:02}-{:02}-{}", d.m, d.d, d.y),
        DS::Iso => format!("{}-{:02}-{:02}", d.y, d.m, d.d),
        DS::DMonY => format!("{:02}-{}-{}", d.d, d.mon(), d.y),
        DS::DMonYUp => format!("{:02}{}{}", d.d, d.mon().to_uppercase(), d.y),
        DS::MonDY => format!("{} {}, {}", d.mon(), d.d, d.y),
        DS::MonthDY => format!("{} {}, {}", d.month(), d.d, d.y),
        DS::MonthDthY => format!("{} {}{}, {}", d.month(), d.d, ord_suffix(d.d), d.y),
        DS::DMonthY => format!("{} {} {}", d.d, d.month(), d.y),
        DS::Compact => format!("{}{:02}{:02}", d.y, d.m, d.d),
        DS::NoYear => format!("{}/{}", d.m, d.d),
    }
}

/// A date in one of the forms letters, notes and mail use.
fn date(r: &mut Rng, d: Ymd) -> Frag {
    let s = r.pick(&[
        DS::Slash,
        DS::SlashPad,
        DS::SlashPad,
        DS::Short2,
        DS::Dash,
        DS::Iso,
        DS::DMonY,
        DS::MonDY,
        DS::MonthDY,
        DS::MonthDthY,
        DS::DMonthY,
    ]);
    l(Kind::Date, ds(d, s))
}

fn dated(d: Ymd, s: DS) -> Frag {
    l(Kind::Date, ds(d, s))
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

fn words(n: u32, hyphen: bool) -> String {
    match n {
        0..=19 => ONES[n as usize].to_string(),
        _ if n.is_multiple_of(10) => TENS[(n / 10) as usize].to_string(),
        _ => format!(
            "{}{}{}",
            TENS[(n / 10) as usize],
            if hyphen { "-" } else { " " },
            ONES[(n % 10) as usize]
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

fn year_words(y: u32, hyphen: bool) -> String {
    let yy = y % 100;
    if y == 2000 {
        return "two thousand".to_string();
    }
    if (2001..2010).contains(&y) {
        return format!("two thousand {}", ONES[yy as usize]);
    }
    let head = words(y / 100, hyphen);
    match yy {
        0 => format!("{head} hundred"),
        1..=9 => format!("{head} oh {}", ONES[yy as usize]),
        _ => format!("{head} {}", words(yy, hyphen)),
    }
}

/// A date as a caller says it.
fn date_words(r: &mut Rng, d: Ymd) -> Frag {
    let month = d.month().to_lowercase();
    let h = r.chance(30);
    let s = match r.below(5) {
        0 => format!("{month} {} {}", ordinal_words(d.d), year_words(d.y, h)),
        1 => format!(
            "{} {} {}",
            words(d.m, h),
            words(d.d, h),
            words(d.y % 100, h)
        ),
        2 => format!(
            "the {} of {month} {}",
            ordinal_words(d.d),
            year_words(d.y, h)
        ),
        3 => format!("{month} {} {}", words(d.d, h), year_words(d.y, h)),
        _ => format!("{} {} {}", words(d.m, h), words(d.d, h), year_words(d.y, h)),
    };
    l(Kind::Date, s)
}

#[derive(Clone, Copy)]
struct Tel {
    a: &'static str,
    e: u32,
    n: u32,
}

impl Tel {
    fn random(r: &mut Rng) -> Tel {
        let mut e = r.range(201, 989);
        if e % 100 == 11 {
            e += 1; // N11 exchanges are service codes
        }
        Tel {
            a: r.pick(AREAS),
            e,
            n: r.range(0, 9999),
        }
    }
}

fn tel_text(r: &mut Rng, p: Tel) -> String {
    let (a, e, n) = (p.a, p.e, p.n);
    match r.below(9) {
        0 | 1 => format!("({a}) {e}-{n:04}"),
        2 | 3 => format!("{a}-{e}-{n:04}"),
        4 => format!("{a}.{e}.{n:04}"),
        5 => format!("{a} {e} {n:04}"),
        6 => format!("{a}{e}{n:04}"),
        7 => format!("+1 {a}-{e}-{n:04}"),
        _ => format!("1-{a}-{e}-{n:04}"),
    }
}

fn phone(r: &mut Rng, p: Tel) -> Frag {
    let s = tel_text(r, p);
    l(Kind::Phone, s)
}

/// A number of someone else (a pharmacy, an insurer, the practice).
fn any_phone(r: &mut Rng) -> Frag {
    let tel = Tel::random(r);
    phone(r, tel)
}

fn any_fax(r: &mut Rng) -> Frag {
    let tel = Tel::random(r);
    fax(r, tel)
}

fn fax(r: &mut Rng, p: Tel) -> Frag {
    let s = tel_text(r, p);
    l(Kind::Fax, s)
}

fn digit_words(r: &mut Rng, ds: &str) -> String {
    let oh = r.chance(50);
    ds.chars()
        .map(|c| {
            let d = c.to_digit(10).unwrap_or(0);
            if d == 0 && oh {
                "oh".to_string()
            } else {
                ONES[d as usize].to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn phone_words(r: &mut Rng, p: Tel) -> Frag {
    let a = digit_words(r, p.a);
    let e = digit_words(r, &p.e.to_string());
    let n = format!("{:04}", p.n);
    let n = if r.chance(30) && n.as_bytes()[0] != b'0' && n.as_bytes()[2] != b'0' {
        // "forty one seventy two": the last four said as two pairs.
        let v: u32 = n.parse().unwrap_or(0);
        format!("{} {}", words(v / 100, false), words(v % 100, false))
    } else {
        digit_words(r, &n)
    };
    let sep = r.pick(&[" ", ", ", " ... "]);
    l(Kind::Phone, format!("{a}{sep}{e}{sep}{n}"))
}

#[derive(Clone)]
struct Addr {
    street: String,
    unit: Option<String>,
    city: &'static str,
    state: &'static str,
    zip: String,
}

impl Addr {
    fn random(r: &mut Rng) -> Addr {
        let (city, state, z3) = r.pick(CITIES);
        let street = if r.chance(8) {
            format!("{} {}", r.pick(&["PO Box", "P.O. Box"]), r.range(12, 9880))
        } else if r.chance(6) {
            format!("{} County Road {}", r.range(100, 9999), r.range(2, 88))
        } else {
            format!(
                "{} {} {}",
                r.range(3, 14999),
                r.pick(STREETS),
                r.pick(SUFFIXES)
            )
        };
        let unit = if r.chance(30) && !street.contains("Box") {
            Some(match r.below(5) {
                0 => format!("Apt {}{}", r.range(1, 40), r.pick(&["", "A", "B", "C"])),
                1 => format!("Unit {}", r.range(1, 300)),
                2 => format!("#{}", r.range(2, 1200)),
                3 => format!("Lot {}", r.range(1, 90)),
                _ => format!("Apt. {}", r.range(1, 40)),
            })
        } else {
            None
        };
        let mut zip = format!("{z3}{}", r.digits(2));
        if r.chance(25) {
            zip = format!("{zip}-{}", r.digits(4));
        }
        Addr {
            street,
            unit,
            city,
            state,
            zip,
        }
    }

    /// "1418 Quarry Hollow Rd, Apt 3B, Hagerstown, MD 21740", one label per part.
    fn line(&self, sep: &str) -> Frag {
        let mut f = l(Kind::Address, self.street.clone());
        if let Some(u) = &self.unit {
            f = f.and(t(", ")).and(l(Kind::Address, u.clone()));
        }
        f.and(t(sep))
            .and(l(Kind::Address, self.city))
            .and(t(format!(", {} ", self.state)))
            .and(l(Kind::Zip, self.zip.clone()))
    }
}

struct Patient {
    who: Who,
    dob: Ymd,
    mrn: String,
    acct: String,
    tel: Tel,
    cell: Tel,
    ssn: String,
    member: String,
    plan: &'static str,
    addr: Addr,
    email: String,
    kin: Who,
    kin_rel: (&'static str, &'static str, bool),
    kin_tel: Tel,
    /// An outside provider (PCP or specialist).
    doc: Who,
    doc_practice: &'static str,
    doc_tel: Tel,
    doc_fax: Tel,
    /// (device, serial)
    device: (&'static str, String),
    /// Admission or visit date, 2024-2026.
    visit: Ymd,
    reason: (&'static str, &'static str),
}

fn initial(s: &str) -> String {
    s.chars().take(1).collect()
}

fn ascii_lower_alnum(s: &str) -> String {
    fold(s)
        .to_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect()
}

impl Patient {
    fn random(r: &mut Rng) -> Patient {
        let who = Who::random(r);
        let dob = Ymd::random(r, 1928, 2006);
        let mrn = match r.below(6) {
            0 => format!("E{}", r.digits(7)),
            1 => format!("M{}", r.digits(8)),
            2 => format!("{}{}", r.range(1, 9), r.digits(6)),
            _ => format!("{}{}", r.range(1, 9), r.digits(7)),
        };
        let len = 8 + r.below(3);
        let acct = format!("{}{}", r.range(1, 9), r.digits(len));
        let ssn = loop {
            let a = r.range(1, 899);
            if a != 666 {
                break format!("{a:03}{:02}{:04}", r.range(1, 99), r.range(1, 9999));
            }
        };
        let (member, plan) = match r.below(5) {
            0 => (
                format!("{}{}", r.letters(3), r.digits(9)),
                "Highmark Blue Shield PPO",
            ),
            1 => (format!("W{}", r.digits(9)), "Aetna Choice POS II"),
            2 => {
                // Medicare Beneficiary Identifier: C A AN N - A AN N - A A N N
                let mbi = format!(
                    "{}{}{}{}-{}{}{}-{}{}",
                    r.range(1, 9),
                    r.letters(1),
                    r.letters(1),
                    r.digits(1),
                    r.letters(1),
                    r.letters(1),
                    r.digits(1),
                    r.letters(2),
                    r.digits(2)
                );
                (mbi, "Medicare Part B")
            }
            3 => (
                format!("U{}{}", r.digits(8), r.digits(2)),
                "UnitedHealthcare Choice Plus",
            ),
            _ => (r.digits(11), "PA Medicaid (HealthChoices)"),
        };
        let addr = Addr::random(r);
        let local = ascii_lower_alnum(who.given);
        let fam = ascii_lower_alnum(who.family);
        let email = match r.below(5) {
            0 => format!("{local}.{fam}@gmail.com"),
            1 => format!("{}{fam}{}@yahoo.com", &local[..1], dob.y % 100),
            2 => format!("{local}{}@outlook.com", r.range(1, 999)),
            3 => format!("{fam}.{local}@icloud.com"),
            _ => format!("{local}_{fam}{}@aol.com", dob.y),
        };
        let kin_rel = r.pick(KIN);
        let mut kin = Who::random(r);
        // The relation fixes the relative's sex, so the given name follows it.
        kin.female = kin_rel.2;
        let (g, n) = r.pick(if kin.female { FEMALE } else { MALE });
        kin.given = g;
        kin.nick = n;
        if r.chance(60) {
            kin.family = who.family;
        }
        let device = match r.below(6) {
            0 => (
                "pacemaker (Medtronic Azure XT DR)",
                format!("PJN{}{}", r.digits(6), r.letters(1)),
            ),
            1 => (
                "insulin pump (Tandem t:slim X2)",
                format!("{}", r.range(1_000_000, 9_999_999)),
            ),
            2 => ("CPAP (ResMed AirSense 11)", format!("23{}", r.digits(9))),
            3 => (
                "ICD (Boston Scientific Resonate)",
                format!("{}", r.range(100_000, 999_999)),
            ),
            4 => (
                "CGM transmitter (Dexcom G6)",
                format!("8{}{}", r.letters(2), r.digits(3)),
            ),
            _ => (
                "home O2 concentrator (Inogen One G5)",
                format!("{}-{}-{}", r.digits(4), r.letters(2), r.digits(4)),
            ),
        };
        Patient {
            who,
            dob,
            mrn,
            acct,
            tel: Tel::random(r),
            cell: Tel::random(r),
            ssn,
            member,
            plan,
            addr,
            email,
            kin,
            kin_rel,
            kin_tel: Tel::random(r),
            doc: Who::random(r),
            doc_practice: r.pick(EXT_PRACTICES),
            doc_tel: Tel::random(r),
            doc_fax: Tel::random(r),
            device,
            visit: Ymd::random(r, 2024, 2026),
            reason: r.pick(REASONS),
        }
    }

    fn age(&self) -> u32 {
        let mut a = self.visit.y - self.dob.y;
        if (self.visit.m, self.visit.d) < (self.dob.m, self.dob.d) {
            a -= 1;
        }
        a
    }

    /// "67-year-old" (unlabelled) or, from 90 up, the age labelled.
    fn age_text(&self, form: &str) -> Frag {
        let a = self.age();
        let n = if a >= 90 {
            l(Kind::Age, a.to_string())
        } else {
            t(a.to_string())
        };
        n.and(t(form))
    }

    fn sex(&self) -> &'static str {
        if self.who.female { "F" } else { "M" }
    }

    fn ssn_dashed(&self) -> String {
        format!("{}-{}-{}", &self.ssn[..3], &self.ssn[3..5], &self.ssn[5..])
    }
}

fn ssn_any(r: &mut Rng, p: &Patient) -> Frag {
    let s = match r.below(3) {
        0 => p.ssn.clone(),
        1 => format!("{} {} {}", &p.ssn[..3], &p.ssn[3..5], &p.ssn[5..]),
        _ => p.ssn_dashed(),
    };
    l(Kind::Ssn, s)
}

fn staff(r: &mut Rng) -> (&'static str, &'static str, &'static str, &'static str) {
    r.pick(STAFF)
}

fn staff_email(s: (&str, &str, &str, &str)) -> Frag {
    let first: String = s.0.chars().take(1).collect();
    l(
        Kind::Email,
        format!(
            "{}{}@{PRACTICE_DOMAIN}",
            first.to_lowercase(),
            s.1.to_lowercase()
        ),
    )
}

fn staff_sig(s: (&str, &str, &str, &str)) -> String {
    if s.2.is_empty() {
        format!("{} {}", s.0, s.1)
    } else {
        format!("{} {}, {}", s.0, s.1, s.2)
    }
}

fn ext_doc(r: &mut Rng, p: &Patient) -> Frag {
    let cred = r.pick(&["MD", "DO", "NP", "PA-C", "MD, FACC"]);
    match r.below(3) {
        0 => t("Dr. ").and(l(Kind::Person, p.doc.full())),
        1 => l(Kind::Person, p.doc.full()).and(t(format!(", {cred}"))),
        _ => t("Dr. ").and(l(Kind::Person, p.doc.family)),
    }
}

fn vitals(r: &mut Rng) -> String {
    format!(
        "BP {}/{}, HR {}, RR {}, T {}.{} C, SpO2 {}% on {}",
        r.range(98, 178),
        r.range(52, 104),
        r.range(54, 128),
        r.range(12, 26),
        r.range(36, 38),
        r.range(0, 9),
        r.range(86, 100),
        r.pick(&["RA", "2L NC", "3 L nasal cannula", "room air"])
    )
}

fn room(r: &mut Rng) -> (String, Frag) {
    // (unit, the room/bed as written with its number labelled)
    let unit = r.pick(&[
        "4-West", "5 North", "MICU", "3E", "Tele", "6 South", "CVICU", "ED",
    ]);
    let rm = Kind::Room;
    let f = match r.below(8) {
        0 => t("Rm ").and(l(rm, format!("{}", r.range(201, 699)))),
        1 => t("Room ").and(l(
            rm,
            format!("{}{}", r.range(2, 28), r.pick(&["A", "B", ""])),
        )),
        2 => t("Bed ").and(l(rm, format!("{}", r.range(1, 32)))),
        3 => t("Bay ").and(l(rm, format!("{}", r.range(1, 18)))),
        4 => t("rm ").and(l(rm, format!("{}-{}", r.range(401, 460), r.range(1, 2)))),
        5 => t("bed ").and(l(
            rm,
            format!("{}{}", r.range(1, 24), r.pick(&["a", "b", "A", "B"])),
        )),
        6 => t("ICU bed ").and(l(rm, format!("{}", r.range(1, 16)))),
        _ => t("Room ").and(l(rm, format!("{}", r.range(301, 560)))),
    };
    (unit.to_string(), f)
}

// ---------------------------------------------------------------------------------------------
// The families.

fn discharge(r: &mut Rng, p: &Patient) -> Doc {
    let mut b = B::new();
    let out = p.visit.plus_days(r.range(2, 9));
    let fu = out.plus_days(r.range(5, 14));
    let att = r.pick(&[STAFF[11], STAFF[0]]);
    b.s(r.pick(&[
        "DISCHARGE SUMMARY\nCedar Hollow Medical Center\n\n",
        "Cedar Hollow Medical Center - Hospital Medicine\nDischarge Summary\n\n",
    ]));
    let pname = if r.chance(50) {
        name(&p.who, NF::Full, r)
    } else {
        name(&p.who, NF::LastFirst, r)
    };
    let dob = date(r, p.dob);
    b.f(
        "Patient: {}    MRN: {}    Acct #: {}\nDOB: {}    Sex: {}\n",
        &[
            pname,
            l(Kind::Mrn, p.mrn.clone()),
            l(Kind::Account, p.acct.clone()),
            dob,
            t(p.sex()),
        ],
    );
    let (unit, rm) = room(r);
    let (d1, d2) = (date(r, p.visit), date(r, out));
    b.f(
        "Admitted: {}    Discharged: {}    Unit: {} {}\n",
        &[d1, d2, t(unit), rm],
    );
    b.f(
        "Attending: {}    PCP: {} ({})\n\n",
        &[t(staff_sig(att)), ext_doc(r, p), t(p.doc_practice)],
    );
    let title = name(&p.who, NF::Title, r);
    let age = p.age_text(r.pick(&["-year-old", " y/o", " yo"]));
    let (reason, icd) = p.reason;
    b.f(
        "DIAGNOSIS: {} ({})\n\nHOSPITAL COURSE: {} is a {} {} with HTN, DM2 (A1c 8.4%) and CKD stage 3 admitted for {}. ",
        &[
            t(reason),
            t(icd),
            title,
            age,
            t(if p.who.female { "woman" } else { "man" }),
            t(reason),
        ],
    );
    b.f(
        "On arrival {}. Treated with IV furosemide 40 mg BID, net -3.2 L; Foley removed day 3. BNP 1,240 -> 410. Echo: EF 35-40%, moderate MR. ",
        &[t(vitals(r))],
    );
    if r.chance(40) {
        let (dev, sn) = p.device.clone();
        b.f(
            "Has a {}, serial {}; interrogated by the rep, normal function.\n",
            &[t(dev), l(Kind::Device, sn)],
        );
    } else {
        b.s("Ambulating with PT by Wednesday, cleared for home.\n");
    }
    b.s("\nDISCHARGE MEDICATIONS:\n");
    for _ in 0..r.range(2, 4) {
        b.f("- {}\n", &[t(r.pick(DRUGS))]);
    }
    let kin = name(&p.kin, if r.chance(50) { NF::Full } else { NF::First }, r);
    let ktel = phone(r, p.kin_tel);
    b.f(
        "\nDISPOSITION: Home with {} {} ({}). ",
        &[t(p.kin_rel.0), kin, ktel],
    );
    b.f("Address on file: {}.\n", &[p.addr.line(", ")]);
    let fud = date(r, fu);
    let doc = t("Dr. ").and(l(Kind::Person, p.doc.family));
    let dtel = phone(r, p.doc_tel);
    b.f(
        "FOLLOW-UP: {} in 1-2 weeks, booked {} at 9:40 AM ({}); BMP on Friday; call for weight gain > 2 lb/day or 5 lb/week.\n",
        &[doc, fud, dtel],
    );
    b.f(
        "\nElectronically signed by {} on {} 16:12.\n",
        &[t(staff_sig(att)), date(r, out)],
    );
    b.done("discharge")
}

fn handoff(r: &mut Rng, p: &Patient) -> Doc {
    let mut b = B::new();
    let (unit, rm) = room(r);
    let nurse_a = r.pick(&[STAFF[2], STAFF[3], STAFF[4], STAFF[10]]);
    let nurse_b = loop {
        let n = r.pick(&[STAFF[2], STAFF[3], STAFF[4], STAFF[10]]);
        if n.1 != nurse_a.1 {
            break n;
        }
    };
    b.f(
        "SBAR handoff {} - {}\n",
        &[t(r.pick(&["0700", "1900", "1500", "2300"])), t(unit)],
    );
    let pn = match r.below(4) {
        3 => name(&p.who, NF::LastInit, r),
        0 => l(Kind::Person, p.who.family)
            .and(t(" ("))
            .and(l(Kind::Person, p.who.given))
            .and(t(")")),
        1 => name(&p.who, NF::Full, r),
        _ => name(&p.who, NF::Title, r),
    };
    let age = p.age_text("");
    let adm = dated(p.visit, if r.chance(60) { DS::NoYear } else { DS::Short2 });
    b.f(
        "S: {}, {} {}, {}, MRN {}. Adm {} w/ {}.\n",
        &[
            pn,
            age,
            t(p.sex()),
            rm,
            l(Kind::Mrn, p.mrn.clone()),
            adm,
            t(p.reason.0),
        ],
    );
    b.f(
        "B: PMH HTN, DM2, CKD3, {}. Allergies: {}. Code status: {}.\n",
        &[
            t(r.pick(&[
                "Parkinson's",
                "Hashimoto's",
                "afib on Eliquis",
                "COPD (2L home O2)",
            ])),
            t(r.pick(&["PCN (rash)", "NKDA", "sulfa", "latex"])),
            t(r.pick(&["Full", "DNR/DNI", "DNR, OK to intubate"])),
        ],
    );
    b.f(
        "A: {}. Foley in place, UOP 35-40 mL/h. Pain 4/10 after oxycodone 5 mg at 0400. Glucose 182 at 0600, 4 units lispro given.\n",
        &[t(vitals(r))],
    );
    let kin = if r.chance(50) {
        name(&p.kin, NF::First, r)
    } else {
        name(&p.kin, NF::Full, r)
    };
    let ktel = phone(r, p.kin_tel);
    b.f(
        "R: recheck K+ with AM labs (1000), {} ({}) wants a call before discharge, cb {}. ",
        &[kin, t(p.kin_rel.0), ktel],
    );
    if r.chance(50) {
        let (dev, sn) = p.device.clone();
        b.f(
            "Home {} SN {} stays with pt.",
            &[t(dev), l(Kind::Device, sn)],
        );
    } else {
        b.s("Fall risk, bed alarm on, PT eval Tuesday.");
    }
    b.f("\nReport given {} -> {}.\n", &[t(nurse_a.3), t(nurse_b.3)]);
    b.done("handoff")
}

fn refill(r: &mut Rng, p: &Patient) -> Doc {
    let mut b = B::new();
    let store = r.pick(&[
        "CVS Pharmacy #4471",
        "Walgreens #07731",
        "Rite Aid #11208",
        "Giant Eagle Pharmacy #0293",
        "Weis Pharmacy #118",
    ]);
    b.s("PHARMACY REFILL AUTHORIZATION REQUEST\n");
    let sent = date(r, p.visit);
    b.f("Date: {}    Pages: 1 of 1\n", &[sent]);
    let ffax = any_fax(r);
    b.f(
        "To: Beatriz Solano, NP - Ridgeline Family Medicine    Fax: {}\n",
        &[ffax],
    );
    let (sp, sf) = (Tel::random(r), Tel::random(r));
    let (sp, sf) = (phone(r, sp), fax(r, sf));
    b.f("From: {}    Ph: {}    Fax: {}\n\n", &[t(store), sp, sf]);
    let pn = if r.chance(50) {
        b.case = Case::Upper;
        name(&p.who, NF::LastFirst, r)
    } else {
        name(&p.who, NF::LastFirst, r)
    };
    let dob = date(r, p.dob);
    let ptel = phone(r, p.tel);
    b.f("Patient: {}    DOB: {}    Ph: {}\n", &[pn, dob, ptel]);
    b.case = Case::As;
    b.f("Address: {}\n", &[p.addr.line(", ")]);
    let drug = r.pick(DRUGS);
    let back = r.range(1, 20);
    let last = date(r, p.visit.plus_days(back));
    b.f(
        "Medication: {}    Qty: {}    Refills remaining: 0\nLast filled: {}    Rx#: {}\nNDC: {}-{}-{}\n",
        &[
            t(drug),
            t(r.pick(&["30", "90", "60", "180"])),
            last,
            l(Kind::Account, format!("{}", r.range(1_000_000, 9_999_999))),
            t(format!("{:05}", r.range(1, 99999))),
            t(format!("{:04}", r.range(1, 9999))),
            t(format!("{:02}", r.range(1, 99))),
        ],
    );
    b.s("Prescriber: Beatriz Solano, NP (DEA on file)\n\n");
    b.s("[ ] Approved   Refills: ____   [ ] Denied   [ ] Needs appointment\n");
    if r.chance(50) {
        b.f(
            "Note from pharmacist: patient requests 90-day supply per {} formulary; copay $10.00.\n",
            &[t(p.plan)],
        );
    }
    b.s("Please fax back by end of day. Thank you.\n");
    b.done("refill")
}

fn labmail(r: &mut Rng, p: &Patient) -> Doc {
    let mut b = B::new();
    let lab = r.pick(&["Quest Diagnostics", "LabCorp", "Cedar Hollow Lab"]);
    let to = r.pick(&[STAFF[0], STAFF[1], STAFF[4]]);
    let from = l(
        Kind::Email,
        r.pick(&[
            "results@questdiagnostics.com",
            "noreply-results@labcorp.com",
            "lab-critical@cedarhollowmc.org",
        ]),
    );
    b.f("From: {}\nTo: {}\n", &[from, staff_email(to)]);
    let critical = r.chance(50);
    b.f(
        "Subject: {} - {} - MRN {}\n",
        &[
            t(if critical {
                "CRITICAL RESULT"
            } else {
                "Results available"
            }),
            l(Kind::Person, fold(p.who.family).to_uppercase())
                .and(t(", "))
                .and(l(Kind::Person, fold(p.who.given).to_uppercase())),
            l(Kind::Mrn, p.mrn.clone()),
        ],
    );
    let col = p.visit;
    b.f(
        "Date: {}, {} {}:{}\n\n",
        &[
            t(weekday(col)),
            dated(col, if r.chance(50) { DS::MonDY } else { DS::DMonthY }),
            t(r.range(7, 18).to_string()),
            t(format!("{:02}", r.range(0, 59))),
        ],
    );
    b.f("Hi {},\n\n", &[t(to.3)]);
    if critical {
        b.f(
            "Critical value called to {} at 14:22 and read back.\n",
            &[t(staff_sig(r.pick(&[STAFF[2], STAFF[4]])))],
        );
    }
    let pn = prose_name(&p.who, r);
    let dob = date(r, p.dob);
    let acc = format!("{}{}", r.pick(&["Q", "LC", "CH"]), r.digits(9));
    b.f(
        "Patient: {}   DOB: {}   Sex: {}   Accession: {}\n",
        &[pn, dob, t(p.sex()), l(Kind::Account, acc)],
    );
    let c = date(r, col);
    b.f(
        "Collected: {} 07:15   Received: same day 09:02   Ordering: Dr. Ashby\n\n",
        &[c],
    );
    b.f(
        "Potassium {}.{} mmol/L (ref 3.5-5.1) {}\nCreatinine {}.{} mg/dL (H)   eGFR {} mL/min/1.73m2\nGlucose {} mg/dL   HbA1c {}.{}%   TSH {}.{} uIU/mL\nLOINC 2823-3, 2160-0, 4548-4\n\n",
        &[
            t(r.range(2, 6).to_string()),
            t(r.range(0, 9).to_string()),
            t(if critical { "CRITICAL" } else { "" }),
            t(r.range(1, 3).to_string()),
            t(r.range(0, 9).to_string()),
            t(r.range(18, 90).to_string()),
            t(r.range(70, 340).to_string()),
            t(r.range(5, 11).to_string()),
            t(r.range(0, 9).to_string()),
            t(r.range(0, 6).to_string()),
            t(r.range(1, 99).to_string()),
        ],
    );
    let ptel = phone(r, p.cell);
    b.f(
        "Please contact the patient at {} today; repeat BMP tomorrow.\n\n{} | Client #: {} | Customer Service {}\n",
        &[ptel, t(lab), t(r.digits(8)), l(Kind::Phone, "1-866-697-8378")],
    );
    b.done("labmail")
}

fn radiology(r: &mut Rng, p: &Patient) -> Doc {
    let mut b = B::new();
    let exam = r.pick(&[
        "CT ABDOMEN PELVIS W CONTRAST",
        "CHEST 2 VIEWS",
        "MRI LUMBAR SPINE WO CONTRAST",
        "US RENAL COMPLETE",
        "CTA CHEST PE PROTOCOL",
        "US LOWER EXT VENOUS DOPPLER LEFT",
    ]);
    b.s("CEDAR HOLLOW IMAGING\n");
    b.f(
        "EXAM: {}    ACC#: {}\n",
        &[
            t(exam),
            l(
                Kind::Account,
                format!("{}{}", r.pick(&["RAD", "CT", "MR", "US"]), r.digits(8)),
            ),
        ],
    );
    b.case = Case::UpperAscii;
    let pn = name(&p.who, NF::LastFirst, r);
    b.case = Case::Upper;
    let dob = dated(p.dob, r.pick(&[DS::SlashPad, DS::DMonYUp, DS::SlashPad]));
    let age = if p.age() >= 90 {
        l(Kind::Age, p.age().to_string()).and(t("Y"))
    } else {
        t(format!("{}Y", p.age()))
    };
    b.f(
        "PATIENT: {}    MRN: {}    DOB: {}    AGE: {}    SEX: {}\n",
        &[pn, l(Kind::Mrn, p.mrn.clone()), dob, age, t(p.sex())],
    );
    b.case = Case::As;
    let dos = dated(p.visit, DS::SlashPad);
    let ord = t("ORDERING: ")
        .and(l(Kind::Person, p.doc.family.to_uppercase()))
        .and(t(", "))
        .and(l(Kind::Person, p.doc.given.to_uppercase()))
        .and(t(" MD"));
    b.f("DATE OF SERVICE: {} 10:42\n{}\n\n", &[dos, ord]);
    let (reason, icd) = p.reason;
    let prior = Ymd::random(r, 2019, 2023);
    let prior = date(r, prior);
    b.f(
        "INDICATION: {} ({}).\nCOMPARISON: {}.\n\nFINDINGS:\n",
        &[t(reason), t(icd), prior],
    );
    b.s(r.pick(&[
        "Mild degenerative disc disease at L4-L5 and L5-S1 without canal stenosis. No fracture.\n",
        "Foley catheter in a decompressed bladder. 4.2 cm simple cyst in the right kidney, Bosniak I. No hydronephrosis.\n",
        "No filling defect to the subsegmental level. RV/LV ratio 0.8. Small bilateral effusions. 6 mm RUL nodule, Fleischner follow-up.\n",
        "Noncompressible left popliteal and posterior tibial veins with absent Doppler flow, consistent with DVT.\n",
        "Heart size upper normal. Mild interstitial edema. No focal consolidation. Degenerative changes at T10-T12.\n",
    ]));
    if r.chance(45) {
        let (dev, sn) = p.device.clone();
        b.f(
            "Left chest {} (serial {} per the device card) with leads in expected position.\n",
            &[t(dev), l(Kind::Device, sn)],
        );
    }
    b.s("\nIMPRESSION:\n1. As above.\n2. Recommend clinical correlation.\n\n");
    b.f(
        "Electronically signed by Gideon Sharpe, MD on {} at 13:05.\nCritical findings discussed with {} by phone at 13:10.\n",
        &[dated(p.visit, DS::SlashPad), ext_doc(r, p)],
    );
    b.done("radiology")
}

fn priorauth(r: &mut Rng, p: &Patient) -> Doc {
    let mut b = B::new();
    let approved = r.chance(50);
    b.f(
        "{}\nUtilization Management Department\nPO Box 890062, Camp Hill, PA 17089\n\n",
        &[t(p.plan)],
    );
    b.f("{}\n\n", &[date(r, p.visit)]);
    b.s("Wendell Ashby, MD\nRidgeline Family Medicine\n");
    b.f("Fax: {}\n\n", &[any_fax(r)]);
    b.s("RE: Prior Authorization Request\n");
    let pn = name(&p.who, if r.chance(50) { NF::FullMid } else { NF::Full }, r);
    b.f(
        "Member: {}    Date of Birth: {}\nMember ID: {}    Group: Employer PPO\nReference #: {}\n\n",
        &[
            pn,
            date(r, p.dob),
            l(Kind::HealthPlan, p.member.clone()),
            l(Kind::Account, format!("PA-{}-{}", r.range(24, 26), r.digits(7))),
        ],
    );
    let dear = name(&p.who, NF::Title, r);
    let (drug, code) = r.pick(&[
        ("Ozempic 0.5 mg/0.5 mL pen, NDC 0169-4132-12", "E11.65"),
        ("Eliquis 5 mg tablets", "I48.91"),
        ("MRI lumbar spine without contrast, CPT 72148", "M54.16"),
        ("CPAP device, HCPCS E0601", "G47.33"),
        ("Repatha 140 mg/mL autoinjector", "E78.01"),
    ]);
    b.f(
        "Dear Dr. Ashby:\n\nWe reviewed your request for {} for diagnosis {} for your patient {}. ",
        &[t(drug), t(code), dear],
    );
    if approved {
        let from = date(r, p.visit.plus_days(3));
        let days = r.range(25, 28) + 150;
        let to = date(r, p.visit.plus_days(days));
        b.f(
            "The request is APPROVED for dates of service {} through {}. Quantity limits of the formulary apply.\n",
            &[from, to],
        );
    } else {
        b.f(
            "The request is DENIED: the plan's step therapy (metformin and one other agent for at least 90 days) was not documented. You may request a peer-to-peer review within 14 days by calling {}.\n",
            &[l(Kind::Phone, "1-800-555-0199")],
        );
    }
    b.f(
        "\nA copy of this letter was mailed to the member at {}.\n\nSincerely,\n{}, RN\nClinical Reviewer\n",
        &[
            p.addr.line(", "),
            l(Kind::Person, Who::random(r).full()),
        ],
    );
    b.done("priorauth")
}

fn hl7(r: &mut Rng, p: &Patient) -> Doc {
    let mut b = B::new();
    let v = p.visit;
    let ts = |d: Ymd, r: &mut Rng| {
        l(
            Kind::Date,
            format!(
                "{}{:02}{:02}{:02}",
                ds(d, DS::Compact),
                r.range(0, 23),
                r.range(0, 59),
                r.range(0, 59)
            ),
        )
    };
    let kind = r.pick(&["ADT^A01", "ADT^A08", "ORU^R01", "ADT^A03"]);
    let sep = if r.chance(25) { "\n" } else { "\r" };
    let ctrl = format!("CHMC{}", r.digits(7));
    b.f(
        "MSH|^~\\&|EPIC|CHMC|RHAPSODY|RIDGELINE|{}||{}|{}|P|2.5.1{}",
        &[ts(v, r), t(kind), t(ctrl), t(sep)],
    );
    if kind.starts_with("ADT") {
        b.f("EVN|{}|{}{}", &[t(&kind[4..]), ts(v, r), t(sep)]);
    }
    b.case = if r.chance(70) {
        Case::UpperAscii
    } else {
        Case::Upper
    };
    let street = l(Kind::Address, p.addr.street.clone());
    let unit = p
        .addr
        .unit
        .clone()
        .map(|u| l(Kind::Address, u))
        .unwrap_or_default();
    let tel = format!("({}){}-{:04}", p.tel.a, p.tel.e, p.tel.n);
    let mut pid = vec![t("PID"), t("1"), t("")];
    pid.push(
        l(Kind::Mrn, p.mrn.clone())
            .and(t("^^^CHMC^MR~"))
            .and(l(Kind::Ssn, p.ssn.clone()))
            .and(t("^^^SSA^SS")),
    );
    pid.push(t(""));
    let mut pn = hl7_name(&p.who);
    if let Some(m) = p.who.mid {
        pn = pn.and(t("^")).and(l(Kind::Person, m.to_string()));
    }
    pid.push(pn);
    pid.push(t(""));
    pid.push(dated(p.dob, DS::Compact));
    pid.push(t(p.sex()));
    pid.push(t(""));
    pid.push(t(r.pick(&["2106-3", "2054-5", "2028-9", "1002-5"])));
    pid.push(
        street
            .and(t("^"))
            .and(unit)
            .and(t("^"))
            .and(l(Kind::Address, p.addr.city))
            .and(t(format!("^{}^", p.addr.state)))
            .and(l(Kind::Zip, p.addr.zip.clone()))
            .and(t("^USA")),
    );
    pid.push(t(""));
    pid.push(l(Kind::Phone, tel).and(t("^PRN^PH")));
    pid.push(t(""));
    pid.push(t(r.pick(&["ENG", "SPA", "VIE", "ARA"])));
    pid.push(t(r.pick(&["M", "S", "W", "D"])));
    pid.push(t(""));
    pid.push(l(Kind::Account, p.acct.clone()));
    pid.push(if r.chance(50) {
        l(Kind::Ssn, p.ssn_dashed())
    } else {
        t("")
    });
    b.push(&join(&pid, "|"));
    b.s(sep);
    if r.chance(60) {
        let kin = hl7_name(&p.kin);
        let ktel = format!("({}){}-{:04}", p.kin_tel.a, p.kin_tel.e, p.kin_tel.n);
        let rel = p.kin_rel.0.to_uppercase();
        b.f(
            "NK1|1|{}|{}^{}|||{}{}",
            &[
                kin,
                t(&rel[..3]),
                t(rel.clone()),
                l(Kind::Phone, ktel),
                t(sep),
            ],
        );
    }
    let mut pv1: Vec<Frag> = vec![t("PV1"), t("1"), t(r.pick(&["I", "E", "O"]))];
    let bed = r.range(1, 2);
    pv1.push(
        t(r.pick(&["4W", "5N", "MICU", "TELE"]))
            .and(t("^"))
            .and(l(Kind::Room, r.range(201, 599).to_string()))
            .and(t("^"))
            .and(l(Kind::Room, format!("{bed:02}")))
            .and(t("^CHMC")),
    );
    pv1.extend([t(""), t(""), t("")]);
    pv1.push(t("^ASANTE^KWABENA^^^^MD"));
    pv1.push(
        t("^")
            .and(l(Kind::Person, p.doc.family))
            .and(t("^"))
            .and(l(Kind::Person, p.doc.given))
            .and(t("^^^^MD")),
    );
    pv1.push(t(""));
    pv1.push(t("MED"));
    while pv1.len() < 19 {
        pv1.push(t(""));
    }
    pv1.push(l(Kind::Account, format!("V{}", r.digits(9))));
    while pv1.len() < 44 {
        pv1.push(t(""));
    }
    pv1.push(ts(v, r));
    b.push(&join(&pv1, "|"));
    b.s(sep);
    b.case = Case::As;
    if kind.starts_with("ORU") || r.chance(40) {
        b.f(
            "OBR|1|||80048^BASIC METABOLIC PANEL^CPT|||{}{}",
            &[ts(v, r), t(sep)],
        );
        let tests = [
            ("2823-3", "Potassium", "mmol/L", "3.5-5.1"),
            ("2160-0", "Creatinine", "mg/dL", "0.6-1.2"),
            ("2345-7", "Glucose", "mg/dL", "70-99"),
            ("2951-2", "Sodium", "mmol/L", "136-145"),
        ];
        for (i, (loinc, what, unit, range)) in tests.iter().enumerate().take(r.range(2, 4) as usize)
        {
            b.f(
                "OBX|{}|NM|{}^{}^LN||{}.{}|{}|{}|{}|||F|||{}{}",
                &[
                    t((i + 1).to_string()),
                    t(*loinc),
                    t(*what),
                    t(r.range(1, 140).to_string()),
                    t(r.range(0, 9).to_string()),
                    t(*unit),
                    t(*range),
                    t(r.pick(&["H", "L", "N", ""])),
                    ts(v, r),
                    t(sep),
                ],
            );
        }
    }
    if r.chance(35) {
        b.f(
            "IN1|1|{}|{}|{}||||||||||||||||||||||||||||||||||||{}{}",
            &[
                t(r.pick(&["HMK001", "AET002", "MCR", "UHC"])),
                t(r.digits(5)),
                t(p.plan.to_uppercase()),
                l(Kind::HealthPlan, p.member.clone()),
                t(sep),
            ],
        );
    }
    b.done("hl7")
}

fn export(r: &mut Rng, ps: &[&Patient]) -> Doc {
    let mut b = B::new();
    let delim = r.pick(&[",", "|", "\t"]);
    let variant = r.below(3);
    let header: &[&str] = match variant {
        0 => &[
            "MRN",
            "LastName",
            "FirstName",
            "DOB",
            "Sex",
            "Phone",
            "Zip",
            "LastVisit",
            "DxCode",
            "Provider",
            "Copay",
        ],
        1 => &[
            "patient_id",
            "name",
            "dob",
            "address",
            "city",
            "state",
            "zip",
            "member_id",
            "cpt",
            "charge",
        ],
        _ => &[
            "Acct",
            "Patient",
            "Birth Date",
            "SSN",
            "Home Phone",
            "Email",
            "Admit",
            "Room",
            "Attending",
        ],
    };
    b.s(&header.join(delim));
    b.s("\n");
    for p in ps {
        let mut row: Vec<Frag> = Vec::new();
        let iso = r.chance(50);
        let dfmt = if iso { DS::Iso } else { DS::Slash };
        match variant {
            0 => {
                row.push(l(Kind::Mrn, p.mrn.clone()));
                row.push(l(Kind::Person, p.who.family));
                row.push(l(Kind::Person, p.who.given));
                row.push(dated(p.dob, dfmt));
                row.push(t(p.sex()));
                row.push(phone(r, p.tel));
                row.push(l(Kind::Zip, p.addr.zip.clone()));
                row.push(dated(p.visit, dfmt));
                row.push(t(p.reason.1));
                row.push(t(r.pick(&["Ashby", "Solano", "Asante"])));
                row.push(t(r.pick(&["$25.00", "$0.00", "$40.00", "$15.00"])));
            }
            1 => {
                row.push(l(Kind::Mrn, p.mrn.clone()));
                let nm = if delim == "," {
                    t("\"")
                        .and(l(Kind::Person, p.who.family))
                        .and(t(", "))
                        .and(l(Kind::Person, p.who.given))
                        .and(t("\""))
                } else {
                    name(&p.who, NF::LastFirst, r)
                };
                row.push(nm);
                row.push(dated(p.dob, dfmt));
                let mut street = l(Kind::Address, p.addr.street.clone());
                if let Some(u) = &p.addr.unit {
                    street = street.and(t(" ")).and(l(Kind::Address, u.clone()));
                }
                row.push(street);
                row.push(l(Kind::Address, p.addr.city));
                row.push(t(p.addr.state));
                row.push(l(Kind::Zip, p.addr.zip.clone()));
                row.push(l(Kind::HealthPlan, p.member.clone()));
                row.push(t(r.pick(&["99214", "99213", "93000", "36415", "G0439"])));
                row.push(t(format!("{}.{:02}", r.range(18, 420), r.range(0, 99))));
            }
            _ => {
                row.push(l(Kind::Account, p.acct.clone()));
                row.push(
                    l(Kind::Person, p.who.family.to_uppercase())
                        .and(t(if delim == "," { " " } else { "," }))
                        .and(l(Kind::Person, p.who.given.to_uppercase())),
                );
                row.push(dated(p.dob, dfmt));
                row.push(l(Kind::Ssn, p.ssn_dashed()));
                row.push(phone(r, p.tel));
                row.push(l(Kind::Email, p.email.clone()));
                row.push(dated(p.visit, dfmt));
                let (_, rm) = room(r);
                row.push(rm);
                row.push(t("ASANTE"));
            }
        }
        b.push(&join(&row, delim));
        b.s("\n");
    }
    b.f(
        "-- {} rows exported by ehr_report_v4 (job 20771) at 06:00 --\n",
        &[t(ps.len().to_string())],
    );
    b.done("export")
}

fn portal(r: &mut Rng, p: &Patient) -> Doc {
    let mut b = B::new();
    let lower = r.chance(70);
    if lower {
        b.case = Case::Lower;
    }
    let drug = r.pick(DRUGS).split(' ').next().unwrap_or("meds");
    match r.below(3) {
        0 => {
            let pn = name(&p.who, NF::Full, r);
            b.f(
                "hi dr ashby its {} dob {} , i need a refil on my {} before friday, im almost out. ",
                &[pn, dated(p.dob, r.pick(&[DS::Short2, DS::Slash, DS::MonthDY])), t(drug)],
            );
            b.f(
                "also my new adress is {} and new cell {}. pharmacy is the walgreens on main. thx\n",
                &[p.addr.line(" "), phone(r, p.cell)],
            );
            if r.chance(50) {
                b.f("- {}\n", &[name(&p.who, NF::First, r)]);
            }
        }
        1 => {
            let kin = name(&p.kin, NF::Full, r);
            let pt_first = l(Kind::Person, p.who.given);
            b.f(
                "hello, im {}, {}'s {}. {} ({} {}, born {}) fell on sunday and has been really confused since, ",
                &[
                    kin,
                    pt_first,
                    t(p.kin_rel.0),
                    t(if p.who.female { "she" } else { "he" }),
                    l(Kind::Person, p.who.given),
                    l(Kind::Person, p.who.family),
                    date(r, p.dob),
                ],
            );
            b.f(
                "can someone call me back at {} today? {} MRN is {} if that helps. i can also be reached at {}\n",
                &[phone(r, p.kin_tel), t(if p.who.female { "her" } else { "his" }), l(Kind::Mrn, p.mrn.clone()), {
                    let local = ascii_lower_alnum(p.kin.given);
                    l(Kind::Email, format!("{local}{}@gmail.com", r.range(10, 99)))
                }],
            );
        }
        _ => {
            b.f(
                "Hi Beatriz - need to resched my appt on {} at 2:30, work wont let me off. ",
                &[dated(p.visit, r.pick(&[DS::NoYear, DS::Slash, DS::MonDY]))],
            );
            b.f(
                "any chance for a tuesday or thursday morning next week? my bp has been 150/95 at home even w the {}. ",
                &[t(drug)],
            );
            let sig = name(&p.who, NF::Full, r);
            b.f(
                "\nthank you,\n{}\nMRN {}\nSent from my iPhone\n",
                &[sig, l(Kind::Mrn, p.mrn.clone())],
            );
        }
    }
    b.done("portal")
}

fn voicemail(r: &mut Rng, p: &Patient) -> Doc {
    let mut b = B::new();
    let from = p.cell;
    let fromtxt = phone(r, from);
    b.f(
        "New voicemail from {} received {} at {}:{} {}, duration 0:{}\nTranscription:\n",
        &[
            fromtxt,
            dated(p.visit, r.pick(&[DS::NoYear, DS::SlashPad, DS::MonDY])),
            t(r.range(1, 12).to_string()),
            t(format!("{:02}", r.range(0, 59))),
            t(r.pick(&["AM", "PM"])),
            t(r.range(21, 59).to_string()),
        ],
    );
    b.case = Case::Lower;
    match r.below(3) {
        0 => {
            let pn = name(&p.who, NF::Full, r);
            let dob = date_words(r, p.dob);
            b.f(
                "hi this is {} calling um my date of birth is {} i'm calling about my {} refill the pharmacy said they never got it ",
                &[pn, dob, t(r.pick(DRUGS).split(' ').next().unwrap_or("pill"))],
            );
            let pw = phone_words(r, p.cell);
            b.f("you can reach me at {} again that's {} ", &[pw.clone(), pw]);
            if r.chance(50) {
                let mw = digit_words(r, p.mrn.trim_start_matches(['E', 'M']));
                b.f("oh and my chart number is {} ", &[l(Kind::Mrn, mw)]);
            }
            b.s("thank you bye\n");
        }
        1 => {
            let kin = name(&p.kin, NF::First, r);
            b.f(
                "hey it's {} {}'s {} ",
                &[kin, l(Kind::Person, p.who.given), t(p.kin_rel.0)],
            );
            b.f(
                "um {} {} is in the er at mercy valley they're saying it's {} and i wanted dr ashby to know {} birthday is {} ",
                &[
                    l(Kind::Person, p.who.given),
                    l(Kind::Person, p.who.family),
                    t(p.reason.0),
                    t(if p.who.female { "her" } else { "his" }),
                    date_words(r, p.dob),
                ],
            );
            let pw = phone_words(r, p.kin_tel);
            b.f(
                "call me back at {} any time today after three is better\n",
                &[pw],
            );
        }
        _ => {
            let doc = l(Kind::Person, p.doc.given)
                .and(t(" "))
                .and(l(Kind::Person, p.doc.family));
            b.f(
                "yes this message is for dr ashby this is dr {} from {} regarding our mutual patient {} date of birth {} ",
                &[
                    doc,
                    t(p.doc_practice),
                    name(&p.who, NF::Full, r),
                    date_words(r, p.dob),
                ],
            );
            let pw = phone_words(r, p.doc_tel);
            b.f(
                "{} potassium was six point one this morning please call me back at {} extension two two one oh thanks\n",
                &[t(if p.who.female { "her" } else { "his" }), pw],
            );
        }
    }
    b.done("voicemail")
}

fn teams(r: &mut Rng, p: &Patient, q: &Patient) -> Doc {
    let mut b = B::new();
    let a = r.pick(&[STAFF[2], STAFF[3], STAFF[4], STAFF[10]]);
    let c = r.pick(&[STAFF[2], STAFF[3], STAFF[4], STAFF[10], STAFF[6]]);
    let mut h = r.range(6, 22);
    let mut m = r.range(0, 50);
    let mut stamp = |r: &mut Rng, who: (&str, &str, &str, &str)| {
        m += r.range(1, 4);
        if m > 59 {
            m -= 60;
            h = (h + 1) % 24;
        }
        format!(
            "[{}:{:02} {}] {} {}\n",
            (h + 11) % 12 + 1,
            m,
            if h < 12 { "AM" } else { "PM" },
            who.0,
            who.1
        )
    };
    let (_, rm1) = room(r);
    let nick = name(&p.who, if r.chance(50) { NF::Nick } else { NF::First }, r);
    b.s(&stamp(r, a));
    b.fc(
        Case::Lower,
        "{} ({}) pulled {} iv again, can u grab the vein finder\n",
        &[rm1, nick, t(if p.who.female { "her" } else { "his" })],
    );
    b.s(&stamp(r, c));
    let title = name(&p.who, NF::Title, r);
    b.fc(
        Case::Lower,
        "omw. is {} the one w the {} who keeps calling\n",
        &[title, t(p.kin_rel.1)],
    );
    b.s(&stamp(r, a));
    let kin = name(&p.kin, NF::First, r);
    b.f(
        "yes {}, {} called 2x already. cb {} - told {} rounds are at 10\n",
        &[
            kin,
            t(if p.kin.female { "she" } else { "he" }),
            phone(r, p.kin_tel),
            t(if p.kin.female { "her" } else { "him" }),
        ],
    );
    b.s(&stamp(r, c));
    let (_, rm2) = room(r);
    let q1 = if r.chance(50) {
        name(&q.who, NF::Full, r)
    } else {
        name(&q.who, NF::First, r)
    };
    b.fc(
        Case::Lower,
        "k. also {} in {} needs a 2nd sitter, pharmacy says the {} is on backorder till monday\n",
        &[q1, rm2, t(r.pick(DRUGS).split(' ').next().unwrap_or("med"))],
    );
    b.s(&stamp(r, a));
    let last = if r.chance(50) {
        l(Kind::Person, q.who.family)
    } else {
        l(Kind::Person, q.who.family.to_lowercase())
    };
    b.f(
        "ugh ok. {}'s bp 88/50 at 0200, gave 500 mL bolus, rechecked 104/62. paged {} at 0215\n",
        &[
            last,
            t(r.pick(&["Dr. Asante", "Kwabena", "the hospitalist"])),
        ],
    );
    if r.chance(50) {
        b.s(&stamp(r, c));
        b.f(
            "👍 ty. {} DOB {} is the fall from last night btw, family = {}\n",
            &[
                name(&q.who, NF::LastFirst, r),
                dated(q.dob, DS::Short2),
                name(&q.kin, NF::Full, r),
            ],
        );
    }
    b.done("teams")
}

fn schedule(r: &mut Rng, p: &Patient, q: &Patient) -> Doc {
    let mut b = B::new();
    let day = r.pick(WEEKDAYS);
    b.f(
        "From: Ellie Vandermeer <{}>\nTo: front desk <{}>\nSubject: schedule changes for {}\n\n",
        &[
            l(Kind::Email, format!("evandermeer@{PRACTICE_DOMAIN}")),
            l(Kind::Email, format!("frontdesk@{PRACTICE_DOMAIN}")),
            t(day),
        ],
    );
    b.s("Hi team,\n\n");
    let newd = p.visit.plus_days(r.range(1, 6));
    b.f(
        "{} ({}, DOB {}) moved from {} 10:40 to {} at 2:15 PM with Dr. Ashby, Ridgeline Cardiology suite 200, 2nd floor. ",
        &[
            name(&p.who, NF::Title, r),
            name(&p.who, NF::Full, r),
            date(r, p.dob),
            dated(p.visit, r.pick(&[DS::NoYear, DS::SlashPad, DS::MonDY])),
            dated(newd, r.pick(&[DS::NoYear, DS::SlashPad, DS::MonthDthY])),
        ],
    );
    b.f(
        "Please confirm with the pt at {} and let {} know to bring the {} log. Interpreter ({}) booked for 2:00.\n\n",
        &[
            phone(r, p.tel),
            t(if p.who.female { "her" } else { "him" }),
            t(r.pick(&["BP", "glucose", "Holter"])),
            t(r.pick(&["Spanish", "Vietnamese", "Arabic", "Haitian Creole", "ASL"])),
        ],
    );
    b.f(
        "{} cancelled {} - no reschedule yet, left VM at {}. ",
        &[name(&q.who, NF::Full, r), t(day), phone(r, q.cell)],
    );
    b.f(
        "{} is on the waitlist for an earlier echo, MRN {}.\n\n",
        &[name(&q.who, NF::First, r), l(Kind::Mrn, q.mrn.clone())],
    );
    b.s("Reminder: Friday is end of quarter, template closes at noon. Room 3 scale is broken, use room 5.\n\nThx,\nEllie\n");
    b.f("{} x204\n", &[any_phone(r)]);
    b.done("schedule")
}

fn luhn_card(r: &mut Rng) -> String {
    let mut d: Vec<u32> = vec![4];
    for _ in 0..14 {
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
    format!("{} {} {} {}", &s[..4], &s[4..8], &s[8..12], &s[12..])
}

fn billing(r: &mut Rng, p: &Patient) -> Doc {
    let mut b = B::new();
    if r.chance(60) {
        b.f(
            "From: {} <{}>\nTo: billing <{}>\nSubject: question about statement - acct {}\n\n",
            &[
                name(&p.who, NF::Full, r),
                l(Kind::Email, p.email.clone()),
                l(Kind::Email, format!("billing@{PRACTICE_DOMAIN}")),
                l(Kind::Account, p.acct.clone()),
            ],
        );
        b.f(
            "Hello,\n\nI got a bill for ${}.{} for my visit on {} but my insurance ({}, member ID {}) should have covered it. ",
            &[
                t(r.range(40, 900).to_string()),
                t(format!("{:02}", r.range(0, 99))),
                date(r, p.visit),
                t(p.plan),
                l(Kind::HealthPlan, p.member.clone()),
            ],
        );
        b.f(
            "The EOB says claim {} was denied for CPT 99214 with code CO-16. ",
            &[l(
                Kind::Account,
                format!("{}{}", r.range(2024, 2026), r.digits(9)),
            )],
        );
        if r.chance(30) {
            b.f(
                "The hospital billing office asked for my social, it is {}. ",
                &[ssn_any(r, p)],
            );
        }
        if r.chance(35) {
            b.f(
                "If I have to pay, please put it on my card {} exp 08/28. ",
                &[l(Kind::Card, luhn_card(r))],
            );
        }
        b.f(
            "You can call me at {} after 5pm.\n\nThanks,\n{}\n",
            &[phone(r, p.cell), name(&p.who, NF::Full, r)],
        );
    } else {
        let rep = Who::random(r);
        let domain = r.pick(&[
            "medline.com",
            "henryschein.com",
            "mckesson.com",
            "cardinalhealth.com",
        ]);
        b.f(
            "From: {} <{}>\nTo: Dev Ramaswamy <{}>\nSubject: PO {} confirmation\n\n",
            &[
                name(&rep, NF::Full, r),
                l(
                    Kind::Email,
                    format!(
                        "{}.{}@{domain}",
                        ascii_lower_alnum(rep.given),
                        ascii_lower_alnum(rep.family)
                    ),
                ),
                l(Kind::Email, format!("dramaswamy@{PRACTICE_DOMAIN}")),
                t(format!("45001{}", r.digits(5))),
            ],
        );
        b.f(
            "Hi Dev,\n\nYour order {} (12 cs nitrile gloves, SKU NG-{}-L; 4 bx BD Vacutainer 367861; 2 cs Sani-Cloth, item 60{}) ships {} via FedEx Ground. Invoice INV-{} total $1,{}.{}.\n",
            &[
                t(format!("SO-{}", r.digits(7))),
                t(r.digits(4)),
                t(r.digits(4)),
                t(r.pick(WEEKDAYS)),
                t(r.digits(6)),
                t(r.range(100, 999).to_string()),
                t(format!("{:02}", r.range(0, 99))),
            ],
        );
        b.f(
            "Lot 4RT{}B of the flu vaccine is backordered until end of month. Net 30, customer #{}.\n\nBest,\n{}\nAccount Manager\n{} | cell {}\n",
            &[
                t(r.digits(2)),
                t(r.digits(6)),
                name(&rep, NF::Full, r),
                any_phone(r),
                any_phone(r),
            ],
        );
    }
    b.done("billing")
}

fn filenames(r: &mut Rng, p: &Patient) -> Doc {
    let mut b = B::new();
    b.s(r.pick(&[
        "Scanner upload complete (Fujitsu fi-7160, profile ScanToEHR):\n",
        "Attached files:\n",
        "Files in \\\\ridgeline-fs01\\scans\\inbox\\ :\n",
    ]));
    let pe = Kind::Person;
    let fam = fold(p.who.family).replace(' ', "");
    let giv = fold(p.who.given).replace(' ', "");
    let mut names: Vec<Frag> = vec![
        l(pe, fam.clone())
            .and(t("_"))
            .and(l(pe, giv.clone()))
            .and(t("_MRN"))
            .and(l(Kind::Mrn, p.mrn.clone()))
            .and(t("_DOB_"))
            .and(dated(p.dob, DS::Iso))
            .and(t(".pdf")),
        l(pe, fam.to_uppercase())
            .and(t("."))
            .and(l(pe, giv.to_uppercase()))
            .and(t("."))
            .and(dated(p.dob, DS::Compact))
            .and(t(".CXR.dcm")),
        t("scan-")
            .and(dated(p.visit, DS::Iso))
            .and(t("-"))
            .and(l(pe, fam.to_lowercase()))
            .and(t("-"))
            .and(l(pe, initial(&giv).to_lowercase()))
            .and(t("-"))
            .and(l(Kind::Mrn, p.mrn.clone()))
            .and(t(".tif")),
        t("referral_")
            .and(l(pe, fam.to_lowercase()))
            .and(t("-"))
            .and(l(pe, giv.to_lowercase()))
            .and(t("_dob"))
            .and(l(
                Kind::Date,
                format!("{:02}{:02}{}", p.dob.m, p.dob.d, p.dob.y),
            ))
            .and(t(".pdf")),
        l(Kind::Mrn, p.mrn.clone())
            .and(t("_"))
            .and(l(pe, fam.clone()))
            .and(l(pe, giv.clone()))
            .and(t("_labs_"))
            .and(dated(p.visit, DS::Dash))
            .and(t(".csv")),
        t("EOB_")
            .and(l(Kind::HealthPlan, p.member.replace('-', "")))
            .and(t("_"))
            .and(l(pe, fam.clone()))
            .and(t(".pdf")),
        l(pe, p.who.family)
            .and(t(", "))
            .and(l(pe, p.who.given))
            .and(t(" - consent signed "))
            .and(l(
                Kind::Date,
                format!("{}.{}.{:02}", p.visit.m, p.visit.d, p.visit.y % 100),
            ))
            .and(t(".pdf")),
        l(pe, fam.clone())
            .and(t("_"))
            .and(l(Kind::Ssn, p.ssn_dashed()))
            .and(t("_W9_intake.pdf")),
    ];
    // Lookalikes that travel with them.
    let plain = [
        format!("Q3_supply_order_PO45001{}.xlsx", r.digits(5)),
        "fax_cover_template_v2.docx".to_string(),
        "CPT_2025_fee_schedule.pdf".to_string(),
        format!("IMG_{}.HEIC", r.digits(4)),
        "Holter_instructions_ENG-SPA.pdf".to_string(),
    ];
    let n = r.range(3, 5) as usize;
    let mut out: Vec<Frag> = Vec::new();
    for _ in 0..n {
        let i = r.below(names.len());
        out.push(names.swap_remove(i));
    }
    let at = r.below(out.len() + 1);
    let lookalike = plain[r.below(plain.len())].clone();
    out.insert(at, t(lookalike));
    for f in out {
        b.f("  {}  ({} KB)\n", &[f, t(r.range(40, 9000).to_string())]);
    }
    if r.chance(50) {
        b.f(
            "Please index to the chart of {} and shred the paper copies.\n",
            &[prose_name(&p.who, r)],
        );
    } else {
        b.s("Indexed by Renata, QA pending.\n");
    }
    b.done("filenames")
}

fn signature(r: &mut Rng, p: &Patient) -> Doc {
    let mut b = B::new();
    if r.chance(55) {
        b.f(
            "Subject: records request - {}\n\nHi Ellie,\n\n",
            &[name(&p.who, NF::LastFirst, r)],
        );
        b.f(
            "Please send the last two office notes and the echo for our mutual patient {} (DOB {}). We are seeing {} on {}. Our fax is {}.\n\n",
            &[
                name(&p.who, NF::Full, r),
                date(r, p.dob),
                t(if p.who.female { "her" } else { "him" }),
                date(r, p.visit),
                fax(r, p.doc_fax),
            ],
        );
        let cred = r.pick(&["MD", "DO", "MD, FACC", "NP-C", "PA-C"]);
        b.f(
            "Thank you,\n\n{}, {}\n{}\n{}\nDirect: {} | Fax: {}\n{}\n",
            &[
                name(&p.doc, NF::FullMid, r),
                t(cred),
                t(specialty(p.doc_practice)),
                t(p.doc_practice),
                phone(r, p.doc_tel),
                fax(r, p.doc_fax),
                l(
                    Kind::Email,
                    format!(
                        "{}{}@{}.org",
                        ascii_lower_alnum(&initial(p.doc.given)),
                        ascii_lower_alnum(p.doc.family),
                        ascii_lower_alnum(p.doc_practice)
                            .chars()
                            .take(10)
                            .collect::<String>()
                    ),
                ),
            ],
        );
        b.s("\nCONFIDENTIALITY NOTICE: This e-mail, including attachments, is for the sole use of the intended recipient(s) and may contain protected health information. If you are not the intended recipient, please contact the sender and destroy all copies.\n");
    } else {
        let st = staff(r);
        b.f(
            "Hi {},\n\nYes, Friday at 9:15 works. I'll bring the glucose log and the {}.\n\n",
            &[
                t(st.3),
                t(r.pick(&["pill bottles", "Dexcom readings", "BP cuff"])),
            ],
        );
        match r.below(3) {
            0 => b.f(
                "Thanks,\n{}\n{}\nSent from my iPhone\n",
                &[name(&p.who, NF::Full, r), phone(r, p.cell)],
            ),
            1 => b.f(
                "--\n{} ({}'s {})\n{}\n",
                &[
                    name(&p.kin, NF::Full, r),
                    l(Kind::Person, p.who.given),
                    t(p.kin_rel.0),
                    l(Kind::Email, p.email.clone()),
                ],
            ),
            _ => b.f(
                "Best regards,\n{}\n{}\n{}\n",
                &[
                    name(&p.who, NF::FullMid, r),
                    p.addr.line("\n"),
                    phone(r, p.tel),
                ],
            ),
        }
        b.s("\n");
        b.f(
            "On {} at 4:12 PM, {} <{}> wrote:\n> Please bring your medication list to your visit.\n> {}\n> Ridgeline Family Medicine | {}\n",
            &[
                dated(p.visit, DS::MonDY),
                t(staff_sig(st)),
                staff_email(st),
                t(staff_sig(st)),
                any_phone(r),
            ],
        );
    }
    b.done("signature")
}

fn forward(r: &mut Rng, p: &Patient) -> Doc {
    let mut b = B::new();
    let st = staff(r);
    b.f(
        "---------- Forwarded message ---------\nFrom: {} <{}>\nDate: {}, {} at {}:{} {}\nSubject: Re: {}'s appointment\nTo: <{}>\n",
        &[
            name(&p.kin, NF::Full, r),
            l(
                Kind::Email,
                format!(
                    "{}.{}{}@gmail.com",
                    ascii_lower_alnum(p.kin.given),
                    ascii_lower_alnum(p.kin.family),
                    r.range(1, 99)
                ),
            ),
            t(&weekday(p.visit)[..3]),
            dated(p.visit, DS::MonDY),
            t(r.range(1, 12).to_string()),
            t(format!("{:02}", r.range(0, 59))),
            t(r.pick(&["AM", "PM"])),
            t(if p.who.female {
                r.pick(&["mom", "Grandma", "my mother"])
            } else {
                r.pick(&["dad", "Grandpa", "my father"])
            }),
            l(Kind::Email, format!("frontdesk@{PRACTICE_DOMAIN}")),
        ],
    );
    if r.chance(40) {
        b.f("Cc: {}\n", &[l(Kind::Email, p.email.clone())]);
    }
    b.s("\n");
    b.f(
        "Hi, this is about {} ({}). The {} appointment at 10:30 doesn't work, can we do end of day {}? Also the portal still has the old address, {}.\n\n",
        &[
            name(&p.who, NF::Full, r),
            t("DOB ").and(date(r, p.dob)),
            t(r.pick(WEEKDAYS)),
            t(r.pick(WEEKDAYS)),
            p.addr.line(", "),
        ],
    );
    b.f(
        "On {}, {} at 9:41 PM {} <{}> wrote:\n> Dear {},\n> This is a reminder of the appointment for {} with {} on {}.\n",
        &[
            t(&weekday(p.visit.plus_days(0))[..3]),
            dated(p.visit.plus_days(0), DS::MonDY),
            t(format!("{} {}", st.0, st.1)),
            staff_email(st),
            name(&p.kin, NF::First, r),
            name(&p.who, NF::Title, r),
            t("Dr. Ashby"),
            date(r, p.visit.plus_days(2)),
        ],
    );
    b.s("> Reply C to confirm. Ridgeline Health Partners\n\n");
    b.f(
        "-- forwarded by {} to {}: pls update demographics in Epic, MRN {}\n",
        &[t(st.3), staff_email(STAFF[8]), l(Kind::Mrn, p.mrn.clone())],
    );
    b.done("forward")
}

/// Generates `n` documents; the same seed gives the same set.
pub fn generate(seed: u64, n: usize) -> Set {
    let mut r = Rng(seed);
    // A few patients more than documents: exports and chats name several.
    let patients: Vec<Patient> = (0..n + 8).map(|_| Patient::random(&mut r)).collect();
    let roster = patients
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 3 == 0)
        .map(|(_, p)| p.who.full())
        .collect();
    let mut keep: Vec<String> = SITES.iter().map(|s| s.to_string()).collect();
    for s in STAFF {
        keep.push(format!("{} {}", s.0, s.1));
        if s.3 != s.0 {
            keep.push(format!("{} {}", s.3, s.1));
        }
    }
    let mut docs = Vec::with_capacity(n);
    for i in 0..n {
        let p = &patients[i];
        let q = &patients[i + 1];
        let d = match FAMILIES[i % FAMILIES.len()] {
            "discharge" => discharge(&mut r, p),
            "handoff" => handoff(&mut r, p),
            "refill" => refill(&mut r, p),
            "labmail" => labmail(&mut r, p),
            "radiology" => radiology(&mut r, p),
            "priorauth" => priorauth(&mut r, p),
            "hl7" => hl7(&mut r, p),
            "export" => {
                let k = r.range(3, 6) as usize;
                let rows: Vec<&Patient> = patients[i..i + k].iter().collect();
                export(&mut r, &rows)
            }
            "portal" => portal(&mut r, p),
            "voicemail" => voicemail(&mut r, p),
            "teams" => teams(&mut r, p, q),
            "schedule" => schedule(&mut r, p, q),
            "billing" => billing(&mut r, p),
            "filenames" => filenames(&mut r, p),
            "signature" => signature(&mut r, p),
            "forward" => forward(&mut r, p),
            other => unreachable!("family {other}"),
        };
        docs.push(d);
    }
    Set { docs, roster, keep }
}

#[cfg(test)]
mod generator_tests {
    use super::*;

    #[test]
    fn calendar_and_number_words() {
        let d = |y, m, d| Ymd { y, m, d };
        assert_eq!(weekday(d(2025, 3, 14)), "Friday");
        assert_eq!(weekday(d(2000, 1, 1)), "Saturday");
        assert_eq!(weekday(d(2024, 2, 28)), "Wednesday");
        assert_eq!(year_words(1961, false), "nineteen sixty one");
        assert_eq!(year_words(1908, true), "nineteen oh eight");
        assert_eq!(year_words(2000, false), "two thousand");
        assert_eq!(year_words(2004, false), "two thousand four");
        assert_eq!(ordinal_words(23), "twenty third");
        assert_eq!(ds(d(1961, 3, 4), DS::MonthDthY), "March 4th, 1961");
        assert_eq!(ds(d(1961, 3, 12), DS::MonthDthY), "March 12th, 1961");
    }

    #[test]
    fn card_numbers_pass_luhn() {
        let mut r = Rng(7);
        for _ in 0..50 {
            let digits: Vec<u32> = luhn_card(&mut r)
                .chars()
                .filter_map(|c| c.to_digit(10))
                .collect();
            let sum: u32 = digits
                .iter()
                .rev()
                .enumerate()
                .map(|(i, &x)| match (i % 2, x * 2) {
                    (0, _) => x,
                    (_, y) if y > 9 => y - 9,
                    (_, y) => y,
                })
                .sum();
            assert_eq!(sum % 10, 0);
        }
    }
}
