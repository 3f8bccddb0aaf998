//! The issue-29 evaluation set: clinic text in the forms that passed the redactor before,
//! written fresh (not derived from `redaction_corpus` or the sentence fixtures), seeded and
//! reproducible, every identifier labelled by the code that writes it.
//!
//! Families: HL7 feeds (also folded onto one line, as a preview shows them), registry lists
//! in capitals, lower-case chat and voicemail transcripts, scanned-file names with glued
//! identifiers, billing mail, scheduling chats with first names alone, referral letters with
//! signatures, and roster names in other cases and short forms. Names come from several
//! origins, many of them outside the Census lists, with and without the profile's roster.
//! Every document also carries text that must stay (clinical words, drug names, deadlines such
//! as "by Friday, end of day").

use opsdesk::governance::redact::Kind;

pub struct Label {
    pub kind: Kind,
    pub dob: bool,
    pub start: usize,
    pub end: usize,
}

pub struct Doc {
    pub family: &'static str,
    pub text: String,
    pub labels: Vec<Label>,
}

pub struct EvalSet {
    pub docs: Vec<Doc>,
    /// The profile's roster (`phi_names`): a third of the patients, some with a short form.
    pub roster: Vec<String>,
    /// The practice and its staff (`phi_keep`).
    pub keep: Vec<String>,
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*: small, seeded, the same on every platform.
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, v: &[&'a str]) -> &'a str {
        v[self.below(v.len())]
    }
    fn digits(&mut self, n: usize) -> String {
        (0..n)
            .map(|i| {
                let d = self.below(10);
                // No leading zero: some shapes (phones) would not be numbers of their kind.
                char::from(b'0' + if i == 0 && d == 0 { 7 } else { d as u8 })
            })
            .collect()
    }
}

/// Writes a document and its labels together.
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
    fn l(&mut self, kind: Kind, s: &str) -> &mut B {
        let start = self.text.len();
        self.text.push_str(s);
        self.labels.push(Label {
            kind,
            dob: false,
            start,
            end: self.text.len(),
        });
        self
    }
    fn dob(&mut self, s: &str) -> &mut B {
        self.l(Kind::Date, s);
        if let Some(l) = self.labels.last_mut() {
            l.dob = true;
        }
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
    "Oluwaseun",
    "Chidinma",
    "Emeka",
    "Ngozi",
    "Wiktoria",
    "Małgorzata",
    "Kavya",
    "Rajesh",
    "Anjali",
    "Mei-Ling",
    "Xiaoling",
    "Soledad",
    "Consuelo",
    "Ximena",
    "Fatima",
    "Zahra",
    "Abdullah",
    "Yusuf",
    "Siobhan",
    "Aoife",
    "Niamh",
    "Tomasz",
    "Bartosz",
    "Grace",
    "Rose",
    "Brandon",
    "Ruth",
    "Harold",
    "Margaret",
    "Thomas",
    "Kwabena",
    "Thandiwe",
    "Dmitri",
    "Svetlana",
    "Hamid",
    "Leilani",
    "Kalani",
    "Bogdan",
    "Ioana",
    "Ana-Maria",
    "María José",
    "Juan Pablo",
    "Nguyen Van",
    "Haruto",
    "Yui",
    "Esperanza",
    "Gwendolyn",
    "Delphine",
    "Ambrose",
    "Cornelius",
    "Winifred",
    "Tobias",
    "Ingrid",
    "Astrid",
    "Sunita",
    "Dev",
];
const LAST: &[&str] = &[
    "Okafor",
    "Nwosu",
    "Adeyemi",
    "Popescu",
    "Castillo",
    "Al-Farsi",
    "Benali",
    "Patel",
    "Abernathy",
    "Zhou",
    "Wiśniewski",
    "Kowalczyk",
    "O'Brien",
    "Finch",
    "Vargas",
    "Lindqvist",
    "Haddad",
    "Nakamura",
    "Nguyen",
    "Brown",
    "Young",
    "Mensah",
    "Oyelaran",
    "Dragomir",
    "Kealoha",
    "Ferreira",
    "Szymański",
    "Thistlewood",
    "Achterberg",
    "Balogun",
    "Iwu",
    "Kapoor",
    "Raghunathan",
    "Delacroix",
    "MacAllister",
    "Van der Berg",
    "St. Clair",
    "Quispe",
    "Mamani",
    "Tshabalala",
    "Kuznetsova",
    "Haugen",
    "Eriksdottir",
    "Oduya",
    "Petrakis",
    "Zielinski",
    "Obi",
    "Cardenas",
    "Whitcombe",
    "Pemberton-Hale",
];
/// The practice's staff (on the keep list): never patients' names in this set, as a keep
/// list's words are kept wherever they stand.
const STAFF: &[&str] = &["Priya Raman", "Lena Ostrowski", "Marcus Webb"];
const PRACTICE: &str = "Lakeside Family Clinic";

const CLEAN: &[&str] = &[
    "Continue metformin 500 mg BID and recheck HbA1c in 3 months.",
    "Please send the signed forms by Friday, end of day.",
    "BP 132/84, HR 72, afebrile. Plan reviewed with Physical Therapy.",
    "Prior Authorization is pending with the plan; we will follow up next Tuesday.",
    "Lisinopril 10 mg daily; hold if SBP < 100.",
    "The MRI is scheduled for tomorrow morning; NPO after midnight.",
    "Grace period for the balance ends in two weeks.",
    "Will call back after the Cardiology consult.",
    "Refill sent to the pharmacy on file.",
    "Follow-up in clinic in 6 weeks, sooner PRN.",
];

fn months() -> &'static [&'static str] {
    &[
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
    ]
}

const NUM_WORDS: &[&str] = &[
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
    "twenty",
    "twenty one",
    "twenty two",
    "twenty three",
    "twenty four",
    "twenty five",
    "twenty six",
    "twenty seven",
    "twenty eight",
];
const ORD_WORDS: &[&str] = &[
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
const DECADES: &[&str] = &["thirty", "forty", "fifty", "sixty", "seventy", "eighty"];

struct Person {
    first: String,
    last: String,
}

impl Person {
    fn full(&self) -> String {
        format!("{} {}", self.first, self.last)
    }
}

struct Dob {
    y: u32,
    m: u32,
    d: u32,
}

impl Dob {
    fn iso(&self) -> String {
        format!("{:04}-{:02}-{:02}", self.y, self.m, self.d)
    }
    fn us(&self) -> String {
        format!("{:02}/{:02}/{}", self.m, self.d, self.y)
    }
    fn compact(&self) -> String {
        format!("{:04}{:02}{:02}", self.y, self.m, self.d)
    }
    fn words(&self, r: &mut Rng) -> String {
        let decade = DECADES[(self.y as usize / 10) % 10 - 3];
        let unit = self.y % 10;
        let year = if unit == 0 {
            format!("nineteen {decade}")
        } else {
            format!("nineteen {decade} {}", NUM_WORDS[unit as usize - 1])
        };
        match r.below(3) {
            0 => format!(
                "{} {} {year}",
                NUM_WORDS[self.m as usize - 1],
                NUM_WORDS[self.d as usize - 1]
            ),
            1 => format!(
                "{} {}, {year}",
                months()[self.m as usize - 1],
                ORD_WORDS[self.d as usize - 1]
            ),
            _ => format!(
                "the {} of {} {year}",
                ORD_WORDS[self.d as usize - 1],
                months()[self.m as usize - 1].to_lowercase()
            ),
        }
    }
}

fn person(r: &mut Rng) -> Person {
    Person {
        first: r.pick(FIRST).to_string(),
        last: r.pick(LAST).to_string(),
    }
}

fn dob(r: &mut Rng) -> Dob {
    Dob {
        y: 1930 + r.below(58) as u32,
        m: 1 + r.below(12) as u32,
        d: 1 + r.below(28) as u32,
    }
}

fn phone(r: &mut Rng) -> String {
    format!("({}) 555-{}", r.digits(3), r.digits(4))
}

fn ssn(r: &mut Rng) -> String {
    format!("{}-{}-{}", r.digits(3), r.digits(2), r.digits(4))
}

fn clean(b: &mut B, r: &mut Rng) {
    b.t(" ").t(r.pick(CLEAN)).t(" ");
}

fn hl7(r: &mut Rng, folded: bool) -> Doc {
    let p = person(r);
    let d = dob(r);
    let mrn = r.digits(7);
    let mut b = B::new();
    let sep = if folded { " " } else { "\n" };
    b.t("HL7 feed from RVC:").t(sep);
    // The message's time is the registration's: a date of the patient's.
    let ts = format!("2026{:02}{:02}0930", 1 + r.below(12), 1 + r.below(28));
    b.t("MSH|^~\\&|LAB|RVC|EHR|LKS|")
        .l(Kind::Date, &ts)
        .t(&format!("||ADT^A04|{}|P|2.5.1{sep}", r.digits(5)));
    b.t("PID|1||").l(Kind::Mrn, &mrn).t("^^^RVC^MR||");
    b.l(Kind::Person, &p.last.to_uppercase())
        .t("^")
        .l(Kind::Person, &p.first.to_uppercase())
        .t("^");
    // The middle initial is part of the name.
    match r.pick(&["A", "B", "M", ""]) {
        "" => &mut b,
        m => b.l(Kind::Person, m),
    }
    .t("||")
    .dob(&d.compact())
    .t("|F|||");
    b.t(sep)
        .t("OBX|1|NM|GLU^Glucose||")
        .t(&format!("{}", 70 + r.below(90)))
        .t("|mg/dL|||||F");
    clean(&mut b, r);
    b.doc(if folded { "hl7 folded" } else { "hl7" })
}

fn registry(r: &mut Rng) -> Doc {
    let mut b = B::new();
    b.t("Registry export, diabetes panel\n");
    for _ in 0..3 + r.below(3) {
        let p = person(r);
        let d = dob(r);
        b.l(
            Kind::Person,
            &format!("{}, {}", p.last.to_uppercase(), p.first.to_uppercase()),
        )
        .t("   DOB ")
        .dob(&d.us())
        .t("   MRN ")
        .l(Kind::Mrn, &r.digits(8))
        .t("   A1c ")
        .t(&format!("{}.{}", 6 + r.below(4), r.below(10)))
        .t("\n");
    }
    clean(&mut b, r);
    b.doc("registry")
}

fn transcript(r: &mut Rng, roster: &[Person]) -> Doc {
    let p = person(r);
    let kin = person(r);
    let d = dob(r);
    let mut b = B::new();
    b.t("voicemail transcript (auto): hi this is ")
        .l(Kind::Person, &kin.full().to_lowercase())
        .t(" calling about my ")
        .t(r.pick(&["mom", "dad", "husband", "wife", "grandmother"]))
        .t(" ")
        .l(Kind::Person, &p.first.to_lowercase())
        .t(", her date of birth is ")
        .dob(&d.words(r))
        .t(", she needs her refill and a callback at ")
        .l(Kind::Phone, &phone(r))
        .t(". ");
    if let Some(known) = roster.get(r.below(roster.len().max(1))) {
        b.t("also ")
            .l(Kind::Person, &known.last.to_lowercase())
            .t(" from next door says hi. ");
    }
    b.t("pt ")
        .l(Kind::Mrn, &r.digits(7))
        .t(" asked for the forms by friday end of day. thanks bye");
    clean(&mut b, r);
    b.doc("transcript")
}

fn file_names(r: &mut Rng) -> Doc {
    let p = person(r);
    let d = dob(r);
    let mut b = B::new();
    b.t("Scanned documents attached:\n");
    let first = p.first.replace(' ', "_");
    let last = p.last.replace(' ', "_");
    match r.below(3) {
        0 => {
            b.l(Kind::Person, &last)
                .t("_")
                .l(Kind::Person, &first)
                .t("_")
                .l(Kind::Ssn, &ssn(r))
                .t("_MRN")
                .l(Kind::Mrn, &r.digits(8))
                .t("_DOB_")
                .dob(&d.iso())
                .t(".pdf\n");
        }
        1 => {
            b.l(Kind::Person, &first)
                .t("_")
                .l(Kind::Person, &last)
                .t("_DOB")
                .dob(&d.compact())
                .t("_intake.txt\n");
        }
        _ => {
            b.t("scan_")
                .l(Kind::Person, &last.to_uppercase())
                .t("_")
                .l(Kind::Person, &first.to_uppercase())
                .t("_MRN_")
                .l(Kind::Mrn, &r.digits(7))
                .t(".tif\n");
        }
    }
    clean(&mut b, r);
    b.doc("file names")
}

fn billing(r: &mut Rng) -> Doc {
    let p = person(r);
    let mut b = B::new();
    b.t("Subject: Statement for account ")
        .l(Kind::Account, &format!("{}-{}", r.digits(4), r.digits(4)))
        .t("\n\nDear ")
        .t(r.pick(&["Mr. ", "Ms. ", "Mrs. "]))
        .l(Kind::Person, &p.last)
        .t(",\n\nYour balance of $")
        .t(&format!("{}.{:02}", 20 + r.below(900), r.below(100)))
        .t(" is due. Member ID ")
        .l(Kind::HealthPlan, &format!("XQ{}", r.digits(8)))
        .t(". Questions: reply to this mail or call ")
        .t(PRACTICE)
        .t(".\n");
    clean(&mut b, r);
    b.t("\nThanks,\n")
        .t(STAFF[r.below(STAFF.len())])
        .t("\nBilling Office\n");
    b.doc("billing")
}

fn scheduling(r: &mut Rng) -> Doc {
    let p = person(r);
    let q = person(r);
    let mut b = B::new();
    b.t("[chat] ")
        .t(STAFF[1])
        .t(": can we move ")
        .l(Kind::Person, &p.first)
        .t(" to 3pm? ");
    b.t("her daughter ")
        .l(Kind::Person, &q.first)
        .t(" will drive.\n[chat] ")
        .t(STAFF[2])
        .t(": ok, and ")
        .l(Kind::Person, &q.first.to_lowercase())
        .t(" asked if ")
        .l(Kind::Person, &p.full())
        .t(" can also get the flu shot. caller ")
        .l(Kind::Person, &person(r).last.to_lowercase())
        .t(" wants a callback at ")
        .l(Kind::Phone, &phone(r))
        .t(".\n");
    clean(&mut b, r);
    b.doc("scheduling")
}

fn referral(r: &mut Rng) -> Doc {
    let p = person(r);
    let sign = person(r);
    let d = dob(r);
    let mut b = B::new();
    b.t("Dear Dr. Raman,\n\nThank you for seeing ")
        .l(Kind::Person, &p.full())
        .t(" (DOB ")
        .dob(&d.us())
        .t("), MRN: ")
        .l(Kind::Mrn, &r.digits(8))
        .t(", SSN ")
        .l(Kind::Ssn, &ssn(r))
        .t(". ")
        .l(Kind::Person, &p.first)
        .t(" lives with her son ")
        .l(Kind::Person, &person(r).first)
        .t(" and can be reached at ")
        .l(
            Kind::Email,
            &format!(
                "{}.{}@example.org",
                p.first.to_lowercase().replace(' ', ""),
                r.digits(3)
            ),
        )
        .t(".");
    clean(&mut b, r);
    b.t("\n\nBest regards,\n")
        .l(Kind::Person, &sign.full())
        .t(", MD\n");
    b.doc("referral")
}

fn roster_forms(r: &mut Rng, roster: &[Person], shorts: &[Option<&'static str>]) -> Doc {
    let i = r.below(roster.len());
    let p = &roster[i];
    let mut b = B::new();
    b.t("Nursing note: ")
        .l(Kind::Person, &p.last.to_uppercase())
        .t(" seen today, tolerated the visit. Spoke with ")
        .l(Kind::Person, &p.last.to_lowercase())
        .t("'s pharmacy about the refill. ");
    if let Some(short) = shorts[i] {
        b.t("Per family, ")
            .l(Kind::Person, short)
            .t(" prefers mornings. ");
    }
    b.l(Kind::Person, &p.last).t(" to return on ").l(
        Kind::Date,
        &format!("{} {}", months()[r.below(12)], 1 + r.below(28)),
    );
    b.t(".");
    clean(&mut b, r);
    b.doc("roster forms")
}

/// `n` documents from `seed`.
pub fn generate(seed: u64, n: usize) -> EvalSet {
    let mut r = Rng(seed | 1);
    let short_pool: &[&'static str] = &["Olu", "Mimi", "Bea", "Tito", "Nana"];
    let roster: Vec<Person> = (0..12).map(|_| person(&mut r)).collect();
    let shorts: Vec<Option<&'static str>> = (0..roster.len())
        .map(|i| (i % 3 == 0).then(|| short_pool[i % short_pool.len()]))
        .collect();
    let roster_names = roster
        .iter()
        .zip(&shorts)
        .map(|(p, s)| match s {
            Some(s) => format!("{} \"{s}\" {}", p.first, p.last),
            None => p.full(),
        })
        .collect();
    let mut docs = Vec::with_capacity(n);
    for i in 0..n {
        docs.push(match i % 9 {
            0 => hl7(&mut r, false),
            1 => hl7(&mut r, true),
            2 => registry(&mut r),
            3 => transcript(&mut r, &roster),
            4 => file_names(&mut r),
            5 => billing(&mut r),
            6 => scheduling(&mut r),
            7 => referral(&mut r),
            _ => roster_forms(&mut r, &roster, &shorts),
        });
    }
    let mut keep: Vec<String> = STAFF.iter().map(|s| s.to_string()).collect();
    keep.push(PRACTICE.to_string());
    EvalSet {
        docs,
        roster: roster_names,
        keep,
    }
}
