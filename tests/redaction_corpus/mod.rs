//! Generator of the message-level PHI evaluation corpus (issue 11): whole synthetic clinic
//! messages — referral letters, HL7 v2 lab feeds, FHIR-ish JSON, voicemail transcripts,
//! scheduling chats, billing mail, nursing handoffs, equipment orders — with every identifier
//! labelled by byte span, and negatives (staff and clinic names on the profile's keep list,
//! pronouns, headers, drug and lab names, years) left unlabelled.
//!
//! Seeded and reproducible: `generate(split, seed, n)` gives the same documents every time
//! (a splitmix64 stream, no external randomness). Two splits:
//! - `Split::Tune`: the families the redactor was tuned on;
//! - `Split::Holdout`: other seeds plus two families that appear only here (nursing handoff,
//!   equipment order). Written before tuning; its misses are never printed, only its table,
//!   so tuning never looks at it.
//!
//! Synthetic only: phone numbers in 555-01xx, SSNs in the never-issued 9xx area, example.*
//! mail domains, invented names.
//!
//! Label conventions (those of tests/fixtures/phi*): Person is the name only (no title, no
//! possessive 's; "Last, First" is one span); Age is the number (or words) of an age over 89;
//! Address is the street line incl. unit, the city its own span, the state unlabelled; Zip is
//! 5 digits or ZIP+4; Date is a day-precision date tied to the patient, `dob` marks dates of
//! birth; Room is the room (and bed) number; Condition is a diagnosis (the profile under test
//! sets `redact_conditions`).

use opsdesk::governance::redact::Kind;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Split {
    Tune,
    Holdout,
}

pub struct Lab {
    pub kind: Kind,
    pub dob: bool,
    pub start: usize,
    pub end: usize,
}

pub struct Doc {
    pub family: &'static str,
    pub text: String,
    pub labels: Vec<Lab>,
}

pub struct Corpus {
    pub docs: Vec<Doc>,
    /// The profile's `phi_names` (patients only, some of those used).
    pub roster: Vec<String>,
    /// The profile's `phi_keep` (clinic and staff).
    pub keep: Vec<String>,
}

/// splitmix64: small, seeded, good enough for picking templates.
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
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
    fn chance(&mut self, pct: u64) -> bool {
        self.next() % 100 < pct
    }
    fn digits(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from(b'0' + self.below(10) as u8))
            .collect()
    }
    fn upper(&mut self, n: usize) -> String {
        const L: &[u8] = b"ABCDEFGHJKLMNPRSTUVWXYZ";
        (0..n).map(|_| char::from(self.pick(L))).collect()
    }
}

/// Text with labelled spans, appended piece by piece.
#[derive(Default)]
struct B {
    text: String,
    labels: Vec<Lab>,
}

impl B {
    fn t(&mut self, s: &str) -> &mut Self {
        self.text.push_str(s);
        self
    }
    fn l(&mut self, kind: Kind, s: &str) -> &mut Self {
        let start = self.text.len();
        self.text.push_str(s);
        self.labels.push(Lab {
            kind,
            dob: false,
            start,
            end: self.text.len(),
        });
        self
    }
    fn dob(&mut self, s: &str) -> &mut Self {
        self.l(Kind::Date, s);
        if let Some(l) = self.labels.last_mut() {
            l.dob = true;
        }
        self
    }
}

const FIRST: &[&str] = &[
    "Margaret",
    "José",
    "Zoë",
    "Siobhan",
    "Aaliyah",
    "Dmitri",
    "Björn",
    "Renée",
    "François",
    "Chloé",
    "Oluwaseun",
    "Priyanka",
    "Wei",
    "Mateo",
    "Ingrid",
    "Tomás",
    "Yusuf",
    "Hiroshi",
    "Keisha",
    "Lucía",
    "Søren",
    "Agnieszka",
    "Declan",
    "Fatima",
    "Ximena",
    "Kwame",
    "Eleanor",
    "Harold",
    "Dolores",
    "Earl",
    "Bernice",
    "Walter",
    "Gladys",
    "Mildred",
    "Anh",
    "Thandiwe",
    "Małgorzata",
    "Raúl",
    "Esperanza",
    "Cornelius",
    "Winifred",
    "Ignatius",
    "Lorraine",
    "Deshawn",
    "Bao",
    "Ngozi",
    "Eustace",
    "Perpetua",
    "Ruthanne",
    "Jolene",
];
const LAST: &[&str] = &[
    "Okafor",
    "Nguyen",
    "Müller",
    "García-López",
    "O'Brien",
    "McAllister",
    "van der Berg",
    "de la Cruz",
    "Da Silva",
    "Kowalczyk",
    "Fitzgerald",
    "Haddad",
    "Tanaka",
    "Johansson",
    "Ibáñez",
    "Pérez",
    "Łukasiewicz",
    "Abernathy",
    "Szymańska",
    "Oyelaran",
    "Thistlethwaite",
    "Delacroix",
    "Brennan-Walsh",
    "Achterberg",
    "Quiñones",
    "Vasquez",
    "Lindqvist",
    "Mbeki",
    "Castellanos",
    "Hargreaves",
    "Pemberton",
    "Rasmussen",
    "Whitcombe",
    "Yamamoto",
    "Dubois",
    "Ferreira",
    "Kaczmarek",
    "St. Clair",
    "MacGregor",
    "Al-Masri",
    "Børresen",
    "Krishnamurthy",
];
const CLINIC: &str = "Lakeside Family Clinic";
const STAFF: &[(&str, &str)] = &[
    ("Dr.", "Priya Raman"),
    ("Dr.", "Samuel Ortiz"),
    ("", "Dana Whitfield"),
    ("", "Tom Becker"),
];
const OUTSIDE_DOCS: &[&str] = &[
    "Helen Marchetti",
    "Rajesh Iyer",
    "Colette Beaumont",
    "Gustavo Arriaga",
    "Naomi Feld",
    "Theodore Quist",
];
const CITIES: &[(&str, &str)] = &[
    ("Springfield", "IL"),
    ("Maple Grove", "MN"),
    ("Bel Air", "MD"),
    ("Eau Claire", "WI"),
    ("San Marcos", "TX"),
    ("Port Angeles", "WA"),
    ("Coeur d'Alene", "ID"),
    ("Fall River", "MA"),
];
const STREETS: &[&str] = &[
    "Birchwood Ave",
    "Old Mill Road",
    "Harbor View Dr",
    "N. Elm Street",
    "Cedar Ln",
    "Kingsley Blvd",
    "Willow Creek Ct",
    "Prospect Pl",
    "Saint Anne Way",
    "W 14th St",
];
const UNITS: &[&str] = &[
    "Apt 3B",
    "Unit 12",
    "Suite 210",
    "#4",
    "Apt. 1107",
    "Lot 22",
];
const CONDITIONS: &[&str] = &[
    "type 2 diabetes",
    "CHF",
    "COPD",
    "hypertension",
    "dementia",
    "atrial fibrillation",
    "breast cancer",
    "major depressive disorder",
    "HIV",
    "Parkinson's disease",
    "CKD stage 3",
    "schizophrenia",
];
const NEG_LINES: &[&str] = &[
    "She tolerated the visit well.",
    "Pt denies chest pain or SOB.",
    "He will continue Metformin 500 mg BID and Lisinopril 10 mg daily.",
    "HbA1c 7.9%, CBC and BMP within normal limits.",
    "Please call the front desk with any questions.",
    "Follow up in 3 months or sooner PRN.",
    "They asked about Medicare coverage for the visit.",
    "No changes to the care plan at this time.",
    "Interface: LAB-IN v2.5.1",
    "Line 2 of 3",
    "Results reviewed by the covering provider.",
    "BP 132/84, HR 72, SpO2 97% on RA.",
    "Eliquis held 48 h before the procedure per Cardiology.",
    "She said the portal message from Monday was unclear.",
    "Prior Authorization submitted to Blue Cross on the usual form.",
    "Reason for visit: annual wellness exam (2024).",
];

#[derive(Clone)]
struct Person {
    first: String,
    last: String,
    middle: char,
    roster: bool,
}

impl Person {
    fn full(&self) -> String {
        format!("{} {}", self.first, self.last)
    }
}

fn person(r: &mut Rng, roster_pct: u64) -> Person {
    Person {
        first: r.pick(FIRST).to_string(),
        last: r.pick(LAST).to_string(),
        middle: char::from(b'A' + r.below(26) as u8),
        roster: r.chance(roster_pct),
    }
}

fn caps(s: &str) -> String {
    s.to_uppercase()
}

/// A patient name in one of the ways clinic text writes it.
fn name_form(r: &mut Rng, p: &Person) -> String {
    match r.below(9) {
        0 | 1 => p.full(),
        2 => format!("{}, {}", p.last, p.first),
        3 => format!("{}, {}", caps(&p.last), caps(&p.first)),
        4 => format!("{} {}. {}", p.first, p.middle, p.last),
        5 => caps(&p.full()),
        6 => format!("{}. {}", p.first.chars().next().unwrap_or('X'), p.last),
        7 => format!("{}, {} {}.", p.last, p.first, p.middle),
        _ => p.full(),
    }
}

#[derive(Clone, Copy)]
struct Date {
    y: u32,
    m: u32,
    d: u32,
}

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
const ONES: &[&str] = &[
    "",
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
const ORD: &[&str] = &[
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
const TENS: &[&str] = &[
    "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];

fn words_below_100(n: u32, hyphen: bool) -> String {
    if n < 20 {
        ONES[n as usize].to_string()
    } else if n.is_multiple_of(10) {
        TENS[(n / 10) as usize].to_string()
    } else {
        let sep = if hyphen { "-" } else { " " };
        format!(
            "{}{sep}{}",
            TENS[(n / 10) as usize],
            ONES[(n % 10) as usize]
        )
    }
}

fn ordinal(n: u32) -> String {
    match n {
        0..=19 => ORD[n as usize].to_string(),
        20 => "twentieth".into(),
        30 => "thirtieth".into(),
        21..=29 => format!("twenty-{}", ORD[(n - 20) as usize]),
        _ => format!("thirty-{}", ORD[(n - 30) as usize]),
    }
}

fn year_words(y: u32, hyphen: bool) -> String {
    let lo = y % 100;
    if y == 2000 {
        return "two thousand".into();
    }
    let lo_w = if lo == 0 {
        "hundred".to_string()
    } else if lo < 10 {
        format!("oh {}", ONES[lo as usize])
    } else {
        words_below_100(lo, hyphen)
    };
    format!("{} {lo_w}", words_below_100(y / 100, hyphen))
}

fn birth(r: &mut Rng) -> Date {
    Date {
        y: 1926 + r.below(75) as u32,
        m: 1 + r.below(12) as u32,
        d: 1 + r.below(28) as u32,
    }
}

fn recent(r: &mut Rng) -> Date {
    Date {
        y: 2025 + r.below(2) as u32,
        m: 1 + r.below(12) as u32,
        d: 1 + r.below(28) as u32,
    }
}

/// A date written out, in one of many forms.
fn date_form(r: &mut Rng, d: Date, spoken: bool) -> String {
    let mon = MONTHS[(d.m - 1) as usize];
    if spoken {
        let h = r.chance(50);
        return match r.below(3) {
            0 => format!(
                "{} {} {}",
                mon.to_lowercase(),
                ordinal(d.d),
                year_words(d.y, h)
            ),
            1 => format!(
                "the {} of {} {}",
                ordinal(d.d),
                mon.to_lowercase(),
                year_words(d.y, h)
            ),
            _ => format!("{} {}, {}", mon, ordinal(d.d), year_words(d.y, h)),
        };
    }
    match r.below(9) {
        0 => format!("{:02}/{:02}/{}", d.m, d.d, d.y),
        1 => format!("{}/{}/{}", d.m, d.d, d.y),
        2 => format!("{}-{:02}-{:02}", d.y, d.m, d.d),
        3 => format!("{mon} {}, {}", d.d, d.y),
        4 => format!("{} {} {}", d.d, &mon[..3], d.y),
        5 => format!("{:02}-{}-{}", d.d, &mon[..3].to_uppercase(), d.y),
        6 => format!("{}/{}/{:02}", d.m, d.d, d.y % 100),
        7 => format!("{}. {}, {}", &mon[..3], d.d, d.y),
        _ => format!("{:02}.{:02}.{}", d.m, d.d, d.y),
    }
}

fn rdate(r: &mut Rng) -> String {
    let d = recent(r);
    date_form(r, d, false)
}

fn bdate(r: &mut Rng) -> String {
    let d = birth(r);
    date_form(r, d, false)
}

fn phone(r: &mut Rng) -> String {
    let a = 200 + r.below(700);
    let last = format!("01{}", r.digits(2));
    match r.below(5) {
        0 => format!("({a}) 555-{last}"),
        1 => format!("{a}-555-{last}"),
        2 => format!("{a}.555.{last}"),
        3 => format!("+1 {a} 555 {last}"),
        _ => format!("{a}/555-{last}"),
    }
}

fn ssn(r: &mut Rng, dashed: bool) -> String {
    let a = format!("9{}", r.digits(2));
    let (b, c) = (r.digits(2), r.digits(4));
    if dashed {
        match r.below(3) {
            0 => format!("{a}-{b}-{c}"),
            1 => format!("{a} {b} {c}"),
            _ => format!("{a}{b}{c}"),
        }
    } else {
        format!("{a}{b}{c}")
    }
}

fn mrn(r: &mut Rng) -> String {
    match r.below(4) {
        0 => r.digits(8),
        1 => format!("{}{}", r.upper(1), r.digits(7)),
        2 => r.digits(7),
        _ => format!("{}-{}", r.digits(3), r.digits(5)),
    }
}

fn email_for(r: &mut Rng, p: &Person) -> String {
    let f = ascii(&p.first).to_lowercase();
    let l = ascii(&p.last).to_lowercase().replace([' ', '\'', '.'], "");
    let dom = r.pick(&["example.com", "example.org", "mail.example.net"]);
    match r.below(3) {
        0 => format!("{f}.{l}@{dom}"),
        1 => format!("{}{l}{}@{dom}", &f[..1], r.digits(2)),
        _ => format!("{l}_{f}@{dom}"),
    }
}

fn ascii(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'á' | 'à' => 'a',
            'é' | 'è' | 'ë' => 'e',
            'í' => 'i',
            'ó' | 'ø' => 'o',
            'ú' | 'ü' => 'u',
            'ñ' | 'ń' => 'n',
            'ł' => 'l',
            'Ł' => 'L',
            'ö' => 'o',
            'Ø' => 'O',
            c => c,
        })
        .collect()
}

struct Addr {
    street: String,
    unit: Option<String>,
    city: String,
    state: String,
    zip: String,
}

fn addr(r: &mut Rng) -> Addr {
    let (c, s) = r.pick(CITIES);
    let zip = if r.chance(30) {
        format!("{}-{}", r.digits(5), r.digits(4))
    } else {
        r.digits(5)
    };
    Addr {
        street: format!("{} {}", 1 + r.below(9800), r.pick(STREETS)),
        unit: r.chance(45).then(|| r.pick(UNITS).to_string()),
        city: c.into(),
        state: s.into(),
        zip,
    }
}

/// "1428 Birchwood Ave, Apt 3B\nSpringfield, IL 62704"
fn write_addr(b: &mut B, a: &Addr, sep: &str) {
    let line = match &a.unit {
        Some(u) => format!("{}, {u}", a.street),
        None => a.street.clone(),
    };
    b.l(Kind::Address, &line).t(sep);
    b.l(Kind::Address, &a.city).t(", ").t(&a.state).t(" ");
    b.l(Kind::Zip, &a.zip);
}

fn staff(r: &mut Rng) -> String {
    let (t, n) = r.pick(STAFF);
    if t.is_empty() {
        n.to_string()
    } else {
        format!("{t} {n}")
    }
}

fn neg(r: &mut Rng, b: &mut B) {
    b.t(r.pick(NEG_LINES)).t("\n");
}

fn condition(r: &mut Rng, b: &mut B) {
    b.l(Kind::Condition, r.pick(CONDITIONS));
}

fn referral(r: &mut Rng, b: &mut B, p: &Person) {
    let dob = birth(r);
    let doc = r.pick(OUTSIDE_DOCS).to_string();
    b.t(CLINIC).t("\n");
    b.t("REFERRAL LETTER\nDate: ");
    b.l(Kind::Date, &rdate(r)).t("\n\n");
    b.t("Dear Dr. ")
        .l(Kind::Person, doc.split(' ').nth(1).unwrap_or("X"))
        .t(",\n\n");
    b.t("Thank you for seeing ");
    let form = name_form(r, p);
    b.t(r.pick(&["my patient ", "", "our patient, "]));
    b.l(Kind::Person, &form).t(" (DOB ");
    b.dob(&date_form(r, dob, false))
        .t(", MRN ")
        .l(Kind::Mrn, &mrn(r))
        .t("), ");
    b.t("for evaluation of ");
    condition(r, b);
    b.t(". ");
    b.t(r.pick(&["Mrs. ", "Mr. ", "Ms. "]))
        .l(Kind::Person, &p.last)
        .t(" has a history of ");
    condition(r, b);
    b.t(" and lives at ");
    let a = addr(r);
    write_addr(b, &a, ", ");
    b.t(".\n");
    neg(r, b);
    b.t(&format!("{}'s daughter ", p.first));
    // Label the possessive's name: re-write the last push with a label.
    let cut = b.text.len() - format!("{}'s daughter ", p.first).len();
    b.text.truncate(cut);
    b.l(Kind::Person, &p.first).t("'s daughter, ");
    let kin = person(r, 0);
    b.l(Kind::Person, &kin.full()).t(", can be reached at ");
    b.l(Kind::Phone, &phone(r)).t(".\n");
    b.t("Please fax notes to ")
        .l(Kind::Fax, &phone(r))
        .t(".\n\n");
    b.t("Sincerely,\n").t(&staff(r)).t("\n").t(CLINIC).t("\n");
}

fn hl7(r: &mut Rng, b: &mut B, p: &Person) {
    let dob = birth(r);
    let ts = format!(
        "2026{:02}{:02}{:02}{:02}",
        1 + r.below(12),
        1 + r.below(28),
        r.below(24),
        r.below(60)
    );
    // The message's time is the test's: a date of service, PHI like every date of a patient.
    b.t("MSH|^~\\&|LABSYS|LKS^Lakeside|EPIC|LKS|")
        .l(Kind::Date, &ts)
        .t(&format!("||ORU^R01|MSG{}|P|2.5.1\r\n", r.digits(6)));
    b.t("PID|1||").l(Kind::Mrn, &r.digits(8)).t("^^^LKS^MR");
    if r.chance(50) {
        b.t("~").l(Kind::Mrn, &r.digits(7)).t("^^^STATE^PI");
    }
    b.t("||");
    b.l(Kind::Person, &caps(&p.last))
        .t("^")
        .l(Kind::Person, &caps(&p.first))
        .t("^")
        .l(Kind::Person, &p.middle.to_string());
    b.t("||")
        .dob(&format!("{}{:02}{:02}", dob.y, dob.m, dob.d))
        .t("|")
        .t(r.pick(&["F", "M"]))
        .t("|||");
    let a = addr(r);
    b.l(Kind::Address, &a.street).t("^");
    if let Some(u) = &a.unit {
        b.l(Kind::Address, u);
    }
    b.t("^")
        .l(Kind::Address, &a.city)
        .t("^")
        .t(&a.state)
        .t("^")
        .l(Kind::Zip, &a.zip)
        .t("^USA||");
    let ph = format!("({}){}-01{}", 200 + r.below(700), 555, r.digits(2));
    b.l(Kind::Phone, &ph).t("^PRN^PH|||||");
    b.l(Kind::Account, &format!("{}{}", r.upper(1), r.digits(8)))
        .t("|");
    b.l(Kind::Ssn, &ssn(r, false)).t("\r\n");
    if r.chance(60) {
        let kin = person(r, 0);
        b.t("NK1|1|")
            .l(Kind::Person, &caps(&kin.last))
            .t("^")
            .l(Kind::Person, &caps(&kin.first));
        b.t("|DAU^Daughter|||").l(Kind::Phone, &phone(r)).t("\r\n");
    }
    b.t("PV1|1|I|4W^")
        .l(Kind::Room, &format!("{}", 400 + r.below(60)))
        .t("^");
    b.l(Kind::Room, r.pick(&["A", "B", "1", "2"]))
        .t("^LKS||||1234^RAMAN^PRIYA^^^DR\r\n");
    b.t("OBR|1|||4548-4^HbA1c^LN|||")
        .l(Kind::Date, &ts)
        .t("\r\n");
    b.t("OBX|1|NM|4548-4^Hemoglobin A1c^LN||7.9|%|4.0-5.6|H|||F\r\n");
    b.t("NTE|1||Specimen received, Line 2 hemolyzed\r\n");
}

fn fhir(r: &mut Rng, b: &mut B, p: &Person) {
    let dob = birth(r);
    b.t("{\n  \"resourceType\": \"Patient\",\n  \"identifier\": [{\"system\": \"urn:oid:2.16.840.1.113883.19.5\", \"type\": {\"text\": \"MRN\"}, \"value\": \"");
    b.l(Kind::Mrn, &mrn(r)).t("\"}],\n");
    b.t("  \"name\": [{\"use\": \"official\", \"family\": \"")
        .l(Kind::Person, &p.last);
    b.t("\", \"given\": [\"")
        .l(Kind::Person, &p.first)
        .t("\"]}],\n");
    b.t("  \"gender\": \"female\",\n  \"birthDate\": \"");
    b.dob(&format!("{}-{:02}-{:02}", dob.y, dob.m, dob.d))
        .t("\",\n");
    b.t("  \"telecom\": [{\"system\": \"phone\", \"value\": \"")
        .l(Kind::Phone, &phone(r))
        .t("\"}, ");
    b.t("{\"system\": \"email\", \"value\": \"")
        .l(Kind::Email, &email_for(r, p))
        .t("\"}],\n");
    let a = addr(r);
    b.t("  \"address\": [{\"line\": [\"")
        .l(Kind::Address, &a.street)
        .t("\"], \"city\": \"");
    b.l(Kind::Address, &a.city)
        .t("\", \"state\": \"")
        .t(&a.state)
        .t("\", \"postalCode\": \"");
    b.l(Kind::Zip, &a.zip)
        .t("\"}],\n  \"managingOrganization\": {\"display\": \"")
        .t(CLINIC)
        .t("\"}\n}\n");
}

fn voicemail(r: &mut Rng, b: &mut B, p: &Person) {
    let dob = birth(r);
    b.t("Voicemail transcript (auto) — Line 3\n");
    b.t("hi um this is ");
    let lower = r.chance(60);
    let n = if lower {
        p.full().to_lowercase()
    } else {
        p.full()
    };
    b.l(Kind::Person, &n).t(" calling, ");
    b.t(r.pick(&["my date of birth is ", "birthday is ", "i was born "]));
    b.dob(&date_form(r, dob, true)).t(", ");
    b.t("i'm calling about my refill, she said to call back. my number is ");
    b.l(Kind::Phone, &phone(r)).t(". ");
    if r.chance(50) {
        let age = 90 + r.below(15) as u32;
        b.t("i'm ")
            .l(Kind::Age, &words_age(age, r.chance(50)))
            .t(" years old so please call before noon. ");
    }
    b.t("also my member id is ")
        .l(Kind::HealthPlan, &format!("{}{}", r.upper(3), r.digits(9)))
        .t(". thanks bye\n");
}

fn words_age(age: u32, digits: bool) -> String {
    if digits {
        age.to_string()
    } else if age < 100 {
        words_below_100(age, true)
    } else {
        format!("one hundred {}", words_below_100(age - 100, true))
            .trim()
            .to_string()
    }
}

fn chat(r: &mut Rng, b: &mut B, p: &Person) {
    let front = "Dana Whitfield";
    let t = |r: &mut Rng| format!("[{:02}:{:02}]", 8 + r.below(9), r.below(60));
    let ts = t(r);
    b.t(&ts)
        .t(" ")
        .t(front)
        .t(": can we move ")
        .l(Kind::Person, &p.first)
        .t(" ")
        .l(Kind::Person, &p.last);
    b.t(" to ")
        .l(Kind::Date, &rdate(r))
        .t("? she asked for mornings\n");
    let ts = t(r);
    b.t(&ts)
        .t(" Tom Becker: sure, ")
        .l(Kind::Person, &p.first)
        .t(" is fine with 9:30. DOB ");
    b.dob(&bdate(r)).t(" to confirm\n");
    let ts = t(r);
    b.t(&ts)
        .t(" ")
        .t(front)
        .t(": pt parked in the garage, plate ");
    let plate = format!("{}{}{}", r.digits(1), r.upper(3), r.digits(3));
    b.l(Kind::Vehicle, &plate).t(", validate pls\n");
    let ts = t(r);
    b.t(&ts)
        .t(" Tom Becker: ok. ")
        .l(Kind::Person, &p.last)
        .t(" also needs wheelchair to room ");
    b.l(Kind::Room, &format!("{}", 10 + r.below(30))).t("\n");
    neg(r, b);
}

fn billing(r: &mut Rng, b: &mut B, p: &Person) {
    let em = email_for(r, p);
    b.t("From: billing@lakesidefamilyclinic.example.com\nTo: ")
        .l(Kind::Email, &em)
        .t("\n");
    b.t("Subject: Statement for acct ");
    let acct = r.digits(7);
    b.l(Kind::Account, &acct).t("\n\n");
    b.t("Dear ").l(Kind::Person, &name_form(r, p)).t(",\n\n");
    b.t("Our records show a balance of $142.18 on account ")
        .l(Kind::Account, &acct)
        .t(" for the visit on ");
    b.l(Kind::Date, &rdate(r)).t(". ");
    b.t("Claim ")
        .l(Kind::Account, &format!("{}{}", r.upper(2), r.digits(9)))
        .t(" was denied by your plan (member ID ");
    b.l(Kind::HealthPlan, &format!("{}{}", r.upper(3), r.digits(8)))
        .t(", group ")
        .l(Kind::HealthPlan, &r.digits(6))
        .t(").\n");
    b.t("To update the guarantor, reply with SSN ");
    b.l(Kind::Ssn, &ssn(r, true))
        .t(" confirmed and the mailing address:\n");
    let a = addr(r);
    write_addr(b, &a, "\n");
    b.t("\nPay online or call ")
        .l(Kind::Phone, &phone(r))
        .t(" (a/c ")
        .l(Kind::Account, &r.digits(5))
        .t(").\n\n");
    b.t("Billing Office\n").t(CLINIC).t("\n");
}

fn handoff(r: &mut Rng, b: &mut B, p: &Person) {
    b.t("NURSING HANDOFF — 4 West\n");
    b.t("Rm ")
        .l(
            Kind::Room,
            &format!("{}{}", 400 + r.below(40), r.pick(&["A", "B", ""])),
        )
        .t(": ");
    b.l(Kind::Person, &caps(&p.last))
        .t(", ")
        .l(Kind::Person, &p.first)
        .t(", ");
    let age = 90 + r.below(14) as u32;
    b.l(Kind::Age, &age.to_string())
        .t(" y/o ")
        .t(r.pick(&["F", "M"]))
        .t(", MR# ")
        .l(Kind::Mrn, &mrn(r))
        .t(". Dx ");
    condition(r, b);
    b.t(". Son ")
        .l(Kind::Person, &person(r, 0).first)
        .t(" visiting, cell ")
        .l(Kind::Phone, &phone(r))
        .t(".\n");
    neg(r, b);
    b.t("Pt is a ")
        .l(Kind::Age, &words_age(90 + r.below(9) as u32, false))
        .t(" year old with ");
    condition(r, b);
    b.t("; DOB ")
        .dob(&bdate(r))
        .t(". Hand off to ")
        .t(&staff(r))
        .t(".\n");
}

fn equipment(r: &mut Rng, b: &mut B, p: &Person) {
    b.t("DME ORDER\nPatient: ")
        .l(Kind::Person, &name_form(r, p))
        .t("   DOB: ");
    b.dob(&bdate(r)).t("\n");
    b.t("Deliver to: ");
    let a = addr(r);
    write_addr(b, &a, ", ");
    b.t("\nConcentrator sn: ")
        .l(Kind::Device, &format!("{}{}", r.upper(2), r.digits(6)))
        .t("\n");
    b.t("Replaces pump s/n ")
        .l(Kind::Device, &format!("{}-{}", r.digits(5), r.upper(1)))
        .t("\n");
    b.t("Medicare policy no. ")
        .l(
            Kind::HealthPlan,
            &format!("{}{}{}", r.digits(1), r.upper(2), r.digits(7)),
        )
        .t("\n");
    b.t("Ordering: ")
        .t(&staff(r))
        .t(", NPI ")
        .l(Kind::License, &r.digits(10))
        .t("\n");
    b.t("Contact ")
        .l(Kind::Email, &email_for(r, p))
        .t(" or ")
        .l(Kind::Phone, &phone(r))
        .t("\n");
}

fn portal(r: &mut Rng, b: &mut B, p: &Person) {
    let em = email_for(r, p);
    b.t("Patient portal message\nFrom: ")
        .l(Kind::Email, &em)
        .t("\nSubject: ");
    b.t(r.pick(&[
        "question about my meds",
        "RE: lab results",
        "appointment",
        "billing question",
    ]));
    b.t("\n\n");
    b.t(r.pick(&["Hello,\n", "Hi Dr. Raman,\n", "Good morning,\n"]));
    b.t("I was seen on ").l(Kind::Date, &rdate(r)).t(" and ");
    b.t(r.pick(&[
        "my pharmacy says the refill was never sent. ",
        "I still have the rash. ",
        "the bill looks wrong. ",
    ]));
    if r.chance(50) {
        b.t("My husband ")
            .l(Kind::Person, &person(r, 0).first)
            .t(" can pick it up. ");
    } else {
        b.t("You can reach me at ")
            .l(Kind::Phone, &phone(r))
            .t(" after 5. ");
    }
    b.t("My date of birth is ")
        .dob(&bdate(r))
        .t(" in case you need it.\n\n");
    b.t(r.pick(&["Thanks,\n", "Best,\n", "Sincerely,\n", "-- \n"]));
    let sig = match r.below(3) {
        0 => p.full(),
        1 => p.first.clone(),
        _ => format!("{} {}.", p.first, p.last.chars().next().unwrap_or('X')),
    };
    if sig.ends_with('.') {
        // "Margaret O." — the first name and the initial are both the name.
        b.l(Kind::Person, &sig);
    } else {
        b.l(Kind::Person, &sig);
    }
    b.t("\nSent from my iPhone\n");
}

fn adt(r: &mut Rng, b: &mut B, p: &Person) {
    let g = person(r, 30);
    // The registration's time: the patient's admission date.
    b.t("MSH|^~\\&|REG|LKS|ADT|LKS|")
        .l(Kind::Date, "202601151200")
        .t("||ADT^A04|A")
        .t(&r.digits(7))
        .t("|P|2.3\r\n");
    b.t("EVN|A04|").l(Kind::Date, "202601151200").t("\r\n");
    b.t("PID|||").l(Kind::Mrn, &mrn(r)).t("^^^^MR||");
    b.l(Kind::Person, &p.last)
        .t("^")
        .l(Kind::Person, &p.first)
        .t("||");
    let dob = birth(r);
    b.dob(&format!("{}{:02}{:02}", dob.y, dob.m, dob.d))
        .t("|F\r\n");
    b.t("PV1||O|CLINIC^")
        .l(Kind::Room, &format!("{}", 100 + r.below(300)))
        .t("^^LKS\r\n");
    b.t("GT1|1||")
        .l(Kind::Person, &caps(&g.last))
        .t("^")
        .l(Kind::Person, &caps(&g.first))
        .t("||");
    let a = addr(r);
    b.l(Kind::Address, &a.street)
        .t("^^")
        .l(Kind::Address, &a.city)
        .t("^")
        .t(&a.state)
        .t("^");
    b.l(Kind::Zip, &a.zip)
        .t("|")
        .l(Kind::Phone, &phone(r))
        .t("||");
    let gd = birth(r);
    b.dob(&format!("{}{:02}{:02}", gd.y, gd.m, gd.d)).t("||||");
    b.l(Kind::Ssn, &ssn(r, true)).t("\r\n");
    b.t("IN1|1|BCBS01|12345|BLUE CROSS OF ILLINOIS||||||||||||");
    b.l(Kind::Person, &caps(&p.last))
        .t("^")
        .l(Kind::Person, &caps(&p.first));
    // IN1-17 relationship, IN1-36 policy number.
    b.t("|SEL|||||||||||||||||||");
    b.l(Kind::HealthPlan, &format!("{}{}", r.upper(3), r.digits(9)))
        .t("\r\n");
}

fn intake(r: &mut Rng, b: &mut B, p: &Person) {
    b.t("NEW PATIENT INTAKE\n");
    b.t("Name: ").l(Kind::Person, &name_form(r, p)).t("\n");
    b.t(r.pick(&["Date of Birth: ", "DOB: ", "Birthdate: ", "D.O.B.: "]))
        .dob(&bdate(r))
        .t("\n");
    b.t(r.pick(&["SSN: ", "Social Security #: ", "SS#: "]))
        .l(Kind::Ssn, &ssn(r, true))
        .t("\n");
    let a = addr(r);
    b.t("Address: ").l(Kind::Address, &a.street).t("\n");
    if let Some(u) = &a.unit {
        b.t("Address line 2: ").l(Kind::Address, u).t("\n");
    }
    b.t("City/State/ZIP: ")
        .l(Kind::Address, &a.city)
        .t(", ")
        .t(&a.state)
        .t(" ")
        .l(Kind::Zip, &a.zip)
        .t("\n");
    b.t(r.pick(&["Cell: ", "Home phone: ", "Phone: "]))
        .l(Kind::Phone, &phone(r))
        .t("\n");
    b.t("Email: ").l(Kind::Email, &email_for(r, p)).t("\n");
    let kin = person(r, 0);
    b.t("Emergency contact: ")
        .l(Kind::Person, &kin.full())
        .t(" (")
        .t(r.pick(&["sister", "son", "friend"]))
        .t(") ");
    b.l(Kind::Phone, &phone(r)).t("\n");
    b.t("Insurance: Aetna  Member #: ")
        .l(Kind::HealthPlan, &format!("W{}", r.digits(9)))
        .t("\n");
    b.t("Primary care: ").t(&staff(r)).t("\n");
    b.t("Problems: ");
    condition(r, b);
    b.t("\nPreferred pharmacy: Walgreens #4471\n");
}

fn pharmacy_fax(r: &mut Rng, b: &mut B, p: &Person) {
    b.t("FAX — REFILL REQUEST\nTo: ")
        .t(CLINIC)
        .t("   Fax: ")
        .t("(555) 555-0100\n");
    b.t("From: Northside Pharmacy   Fax: ")
        .t("(555) 555-0111\n\n");
    b.t("RE: ")
        .l(Kind::Person, &name_form(r, p))
        .t("   DOB ")
        .dob(&bdate(r))
        .t("\n");
    b.t("Pt address on file: ");
    let a = addr(r);
    write_addr(b, &a, ", ");
    // A prescription number names the patient's prescription: an identifying number (Safe
    // Harbor's last category), like an account's.
    b.t("\nRx #")
        .l(Kind::Account, &r.digits(7))
        .t(" Atorvastatin 40 mg, qty 90\n");
    b.t("Prescriber: ").t(&staff(r)).t("\n");
    b.t("Patient phone ")
        .l(Kind::Phone, &phone(r))
        .t(" / alt ")
        .l(Kind::Phone, &phone(r))
        .t("\n");
    b.t(r.pick(&["Please sign and fax back to ", "Return to pharmacy fax "]))
        .l(Kind::Fax, &phone(r))
        .t("\n");
}

fn triage(r: &mut Rng, b: &mut B, p: &Person) {
    let age = 90 + r.below(12) as u32;
    b.t("ED TRIAGE ").l(Kind::Date, &rdate(r)).t("\n");
    b.t("CC: fall at home. ");
    b.l(Kind::Person, &p.first)
        .t(" ")
        .l(Kind::Person, &p.last)
        .t(" is a ");
    if r.chance(50) {
        b.l(Kind::Age, &age.to_string()).t("-year-old");
    } else {
        b.l(Kind::Age, &words_age(age, false)).t("-year-old");
    }
    b.t(" woman with ");
    condition(r, b);
    b.t(", brought in by her grandson ")
        .l(Kind::Person, &person(r, 0).full())
        .t(".\n");
    b.t("Lives alone at ")
        .l(Kind::Address, &addr(r).street)
        .t(". PCP ")
        .t(&staff(r))
        .t(".\n");
    b.t("Bed ")
        .l(Kind::Room, &format!("{}", 1 + r.below(30)))
        .t(", chart ")
        .l(Kind::Mrn, &mrn(r))
        .t(".\n");
    neg(r, b);
}

type Family = (&'static str, fn(&mut Rng, &mut B, &Person));

const TUNE_FAMILIES: &[Family] = &[
    ("referral", referral),
    ("hl7", hl7),
    ("fhir", fhir),
    ("voicemail", voicemail),
    ("chat", chat),
    ("billing", billing),
    ("portal", portal),
    ("adt", adt),
    ("intake", intake),
];
const HOLDOUT_ONLY: &[Family] = &[
    ("handoff", handoff),
    ("equipment", equipment),
    ("pharmacy_fax", pharmacy_fax),
    ("triage", triage),
];

/// `n` documents of `split`, reproducible from `seed`.
pub fn generate(split: Split, seed: u64, n: usize) -> Corpus {
    let salt = match split {
        Split::Tune => 0x7475_6e65,
        Split::Holdout => 0x686f_6c64,
    };
    let mut r = Rng(seed ^ salt);
    let families: Vec<Family> = match split {
        Split::Tune => TUNE_FAMILIES.to_vec(),
        Split::Holdout => TUNE_FAMILIES.iter().chain(HOLDOUT_ONLY).copied().collect(),
    };
    let mut roster = Vec::new();
    let mut docs = Vec::new();
    for i in 0..n {
        let p = person(&mut r, 60);
        if p.roster && !roster.contains(&p.full()) {
            roster.push(p.full());
        }
        let (family, f) = families[i % families.len()];
        let mut b = B::default();
        f(&mut r, &mut b, &p);
        // Fixed-name placeholders inside templates must not collide with patients.
        docs.push(Doc {
            family,
            text: b.text,
            labels: b.labels,
        });
    }
    let keep = std::iter::once(CLINIC.to_string())
        .chain(STAFF.iter().map(|(_, n)| n.to_string()))
        .collect();
    Corpus { docs, roster, keep }
}
