//! The twelfth blind set's generator: two thirds everyday clinic mail (referrals, HL7 v2
//! ADT/ORU/SIU, voicemail, scheduling chats, billing, collections, attachment names, mail
//! subjects, forwarded threads, portal messages, refill faxes, prior-auth covers, discharge
//! summaries, SOAP notes) and a third new families (hospice admissions, home-health visits,
//! newborn screening, staff Slack threads, Vietnamese, Haitian Creole, Polish and Brazilian
//! Portuguese messages). Written without reading the redactor or any other set's generator.

pub use super::redaction_harness::{Doc, Label, Set};
use opsdesk::governance::redact::Kind;

pub const FAMILIES: [&str; 24] = [
    "referral",
    "hl7adt",
    "hl7oru",
    "hl7siu",
    "voicemail",
    "schedchat",
    "billing",
    "collections",
    "attach",
    "subjects",
    "fwdthread",
    "portal",
    "refillfax",
    "priorauth",
    "discharge",
    "soap",
    "hospice",
    "homehealth",
    "newborn",
    "slack",
    "vietnamese",
    "kreyol",
    "polish",
    "ptbr",
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64: small, seeded, deterministic.
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
    fn digits(&mut self, n: usize) -> String {
        (0..n)
            .map(|i| {
                let d = self.below(10) as u8;
                // No leading zero, so numbers read as numbers.
                char::from(b'0' + if i == 0 && d == 0 { 7 } else { d })
            })
            .collect()
    }
    fn upper(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from(b'A' + self.below(26) as u8))
            .collect()
    }
}

#[derive(Default)]
struct B {
    s: String,
    l: Vec<Label>,
}

impl B {
    fn t(&mut self, x: &str) -> &mut Self {
        self.s.push_str(x);
        self
    }
    fn k(&mut self, kind: Kind, x: &str) -> &mut Self {
        let start = self.s.len();
        self.s.push_str(x);
        self.l.push(Label {
            start,
            end: self.s.len(),
            kind,
        });
        self
    }
    fn p(&mut self, x: &str) -> &mut Self {
        self.k(Kind::Person, x)
    }
    fn d(&mut self, x: &str) -> &mut Self {
        self.k(Kind::Date, x)
    }
    fn done(&mut self, family: &'static str) -> Doc {
        Doc {
            family,
            text: std::mem::take(&mut self.s),
            labels: std::mem::take(&mut self.l),
        }
    }
}

const FIRST: &[&str] = &[
    "Thanh",
    "Ngoc",
    "Bao",
    "Jae-won",
    "Seo-yeon",
    "Pa Nhia",
    "Tou",
    "Xiong",
    "Farhiya",
    "Abdiqani",
    "Wilnès",
    "Jean-Robert",
    "Fabiola",
    "Stavroula",
    "Evangelos",
    "Zbigniew",
    "Małgorzata",
    "Kasia",
    "Adebayo",
    "Folasade",
    "Yitzhak",
    "Shoshana",
    "Winona",
    "Tokala",
    "Lani",
    "Keoni",
    "Sione",
    "Quispe",
    "Wayra",
    "Dolores",
    "Marisol",
    "Ignatius",
    "Prudence",
    "Cornelius",
    "Birdie",
    "Ozzie",
    "Hope",
    "Grace",
    "Rusty",
    "Dusty",
    "June",
    "Mercy",
    "Constance",
    "Ebenezer",
    "Thiago",
    "Luíza",
    "Gonçalo",
    "Raimunda",
    "Aurelio",
    "Nnamdi",
    "Chiamaka",
    "Siobhan",
    "Padraig",
    "Anneliese",
    "Hortense",
    "Delphine",
    "Roosevelt",
    "Percival",
    "Tallulah",
    "Yusra",
];
const LAST: &[&str] = &[
    "Huỳnh",
    "Trịnh",
    "Lâm",
    "Kwon",
    "Baek",
    "Vang",
    "Thao",
    "Lor",
    "Warsame",
    "Abdullahi",
    "Désir",
    "Pierre-Louis",
    "Jeannot",
    "Karamanlis",
    "Papadakis",
    "Wróblewski",
    "Grzybowska",
    "Szczepański",
    "Okonjo",
    "Adeyemi",
    "Ben-Ami",
    "Rosenzweig",
    "Two Bulls",
    "Yellowhorse",
    "Kealoha",
    "Fonoti",
    "Tuilagi",
    "Mamani",
    "Condori",
    "Villalobos",
    "de la Fuente",
    "McGillicuddy",
    "O'Driscoll",
    "Fairweather",
    "Brooks",
    "Shepherd",
    "Carpenter",
    "Baker",
    "Sterling",
    "Winter",
    "Ferreira da Costa",
    "Nascimento",
    "Albuquerque",
    "Obi",
    "Eze",
    "Ní Bhriain",
    "Van Wyk",
    "Lindqvist",
    "Beaulieu",
    "Thibodeaux",
    "Hatfield",
    "Pennington",
    "Quarles",
    "Alkhatib",
    "Haddad",
    "Nakamura-Price",
    "Featherstone",
    "Ravenscroft",
];
const NICK: &[&str] = &[
    "Bebe", "Tito", "Gus", "Mimi", "Sully", "Dot", "Peaches", "Boo", "Chip", "Kiki", "Lulu", "Mac",
];
const STREETS: &[&str] = &[
    "Quarry Hollow Rd",
    "Tamarack Ln",
    "Old Mill Pike",
    "Chestnut Ridge Dr",
    "Harbor View Ter",
    "Spruce Knob Ct",
    "Wexford Cir",
    "Bluebonnet Trl",
    "Cooper Station Ave",
    "Linden Hollow Way",
    "Fallowfield Blvd",
    "Prospect Hill St",
];
const CITIES: &[&str] = &[
    "Dunmore, PA",
    "Carbondale, PA",
    "Moosic, PA",
    "Olyphant, PA",
    "Taylor, PA",
    "Clarks Summit, PA",
    "Honesdale, PA",
    "Pittston, PA",
];
const STAFF: &[&str] = &[
    "Imogen Faraday",
    "Rafferty Osei",
    "Henrietta Vukovic",
    "Caspian Lindgren",
    "Marguerite Adair",
    "Theo Bhattacharya",
    "Perpetua Oyelaran",
    "Desmond Kilbride",
];
const STAFF_FIRST: &[&str] = &[
    "Imogen",
    "Rafferty",
    "Henrietta",
    "Caspian",
    "Marguerite",
    "Theo",
    "Perpetua",
    "Desmond",
];
const CLINIC: &str = "Lackawanna Valley Family Health";
const PAYERS: &[&str] = &[
    "Keystone Mutual Health",
    "Anthracite Health Plan",
    "Susquehanna Care Partners",
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
const ONES: &[&str] = &[
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
];
const ORD: &[&str] = &[
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
const TENS: &[&str] = &[
    "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];
// Lookalikes that are not PHI: codes, drugs, doses, order numbers.
const CODES: &[&str] = &[
    "ICD-10 I48.91",
    "CPT 99214",
    "NDC 0093-7146-56",
    "LOINC 4548-4",
    "HCPCS E0431",
    "ICD-10 E11.65",
    "lot KX4471B",
    "PO# 55-20931",
    "NPI 1487736210",
];
const DRUGS: &[&str] = &[
    "apixaban 5 mg BID",
    "metoprolol succ 25 mg daily",
    "furosemide 40 mg",
    "sertraline 50 mg",
    "levothyroxine 88 mcg",
    "tamsulosin 0.4 mg qhs",
    "insulin glargine 22 units",
];

#[derive(Clone)]
struct Pt {
    first: String,
    last: String,
    nick: String,
    y: u32,
    m: u32,
    d: u32,
    phone: String,
    street: String,
    city: String,
    zip: String,
    mrn: String,
    member: String,
    acct: String,
    email: String,
}

fn patient(r: &mut Rng, i: usize) -> Pt {
    let first = FIRST[(i * 7 + 3) % FIRST.len()].to_string();
    let last = LAST[(i * 11 + 5) % LAST.len()].to_string();
    let ascii = |s: &str| -> String {
        s.chars()
            .filter_map(|c| match c {
                'a'..='z' | 'A'..='Z' => Some(c.to_ascii_lowercase()),
                'ł' | 'Ł' => Some('l'),
                'ó' | 'ò' => Some('o'),
                'ą' | 'à' | 'á' | 'â' => Some('a'),
                'è' | 'é' | 'ê' => Some('e'),
                'ñ' | 'ń' => Some('n'),
                'í' | 'ị' => Some('i'),
                'ç' => Some('c'),
                'ỳ' | 'ỹ' | 'ý' => Some('y'),
                'ú' | 'ư' | 'ü' => Some('u'),
                _ => None,
            })
            .collect()
    };
    let dom = r.pick(&[
        "gmail.com",
        "verizon.net",
        "yahoo.com",
        "ptd.net",
        "outlook.com",
    ]);
    let email = match r.below(3) {
        0 => format!(
            "{}.{}{}@{dom}",
            ascii(&first),
            ascii(&last),
            r.below(90) + 10
        ),
        1 => format!("{}{}@{dom}", &ascii(&first)[..1], ascii(&last)),
        _ => format!("{}_{}{}@{dom}", ascii(&last), ascii(&first), r.digits(2)),
    };
    Pt {
        nick: NICK[i % NICK.len()].to_string(),
        y: 1924 + r.below(80) as u32,
        m: 1 + r.below(12) as u32,
        d: 1 + r.below(28) as u32,
        phone: format!(
            "{}{}{}",
            r.pick(&["570", "272", "484", "610"]),
            r.pick(&["3", "4", "9"]),
            r.digits(6)
        ),
        street: format!("{} {}", r.below(9800) + 12, r.pick(STREETS)),
        city: r.pick(CITIES).to_string(),
        zip: format!("18{}{}", r.pick(&["4", "5", "6"]), r.digits(2)),
        mrn: {
            let n = 7 + r.below(2);
            r.digits(n)
        },
        member: format!("{}{}", r.pick(&["KMH", "AHP", "SCP", "XJY"]), r.digits(9)),
        acct: r.digits(8),
        email,
        first,
        last,
    }
}

fn date_form(r: &mut Rng, y: u32, m: u32, d: u32) -> String {
    match r.below(9) {
        0 => format!("{m:02}/{d:02}/{y}"),
        1 => format!("{m}/{d}/{:02}", y % 100),
        2 => format!("{y}-{m:02}-{d:02}"),
        3 => format!("{} {d}, {y}", MONTHS[m as usize - 1]),
        4 => format!("{d} {} {y}", &MONTHS[m as usize - 1][..3]),
        5 => format!("{}. {d}, {y}", &MONTHS[m as usize - 1][..3]),
        6 => format!("{m}-{d}-{y}"),
        7 => format!("{d}-{}-{y}", &MONTHS[m as usize - 1][..3].to_uppercase()),
        _ => format!("{m}/{d}/{y}"),
    }
}

fn eu_date(r: &mut Rng, y: u32, m: u32, d: u32) -> String {
    match r.below(3) {
        0 => format!("{d:02}/{m:02}/{y}"),
        1 => format!("{d}.{m:02}.{y}"),
        _ => format!("{d:02}-{m:02}-{y}"),
    }
}

fn phone_form(r: &mut Rng, p: &str) -> String {
    let (a, b, c) = (&p[..3], &p[3..6], &p[6..]);
    match r.below(7) {
        0 => format!("({a}) {b}-{c}"),
        1 => format!("{a}-{b}-{c}"),
        2 => format!("{a}.{b}.{c}"),
        3 => format!("+1 {a} {b} {c}"),
        4 => p.to_string(),
        5 => format!("1-{a}-{b}-{c}"),
        _ => format!("({a}){b}-{c}"),
    }
}

fn spoken_digits(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_digit())
        .map(|c| ONES[c as usize - '0' as usize])
        .collect::<Vec<_>>()
        .join(" ")
}

fn spoken_year(y: u32) -> String {
    let (hi, lo) = (y / 100, y % 100);
    let hi = if hi == 19 { "nineteen" } else { "two thousand" };
    let lo = if lo == 0 {
        String::new()
    } else if lo < 10 {
        format!(" oh {}", ONES[lo as usize])
    } else if lo < 20 {
        format!(
            " {}",
            [
                "ten",
                "eleven",
                "twelve",
                "thirteen",
                "fourteen",
                "fifteen",
                "sixteen",
                "seventeen",
                "eighteen",
                "nineteen"
            ][lo as usize - 10]
        )
    } else if lo % 10 == 0 {
        format!(" {}", TENS[lo as usize / 10])
    } else {
        format!(" {} {}", TENS[lo as usize / 10], ONES[lo as usize % 10])
    };
    format!("{hi}{lo}")
}

fn age_word(a: u32) -> String {
    if a >= 100 {
        return match a - 100 {
            0 => "a hundred".to_string(),
            n => format!("one hundred and {}", ONES[n as usize % 10]),
        };
    }
    if a.is_multiple_of(10) {
        TENS[a as usize / 10].to_string()
    } else {
        format!("{}-{}", TENS[a as usize / 10], ONES[a as usize % 10])
    }
}

/// An age of 90 or more in one of its written forms: (before, labelled part, after).
fn age_form(r: &mut Rng) -> (String, String, String) {
    let a = 90 + r.below(14) as u32;
    let sx = r.pick(&["F", "M"]);
    match r.below(11) {
        0 => (String::new(), a.to_string(), "-year-old".into()),
        1 => (String::new(), a.to_string(), " y/o".into()),
        2 => (String::new(), a.to_string(), "yo".into()),
        3 => ("age ".into(), a.to_string(), String::new()),
        4 => (String::new(), age_word(a), " years old".into()),
        5 => (String::new(), a.to_string(), sx.into()),
        6 => ("aged ".into(), a.to_string(), String::new()),
        7 => (String::new(), a.to_string(), " y.o.".into()),
        8 => (String::new(), a.to_string(), " yrs".into()),
        9 => ("Age: ".into(), a.to_string(), String::new()),
        _ => (String::new(), age_word(a), "-year-old".into()),
    }
}

fn age(b: &mut B, r: &mut Rng) {
    let (x, a, y) = age_form(r);
    b.t(&x).k(Kind::Age, &a).t(&y);
}

/// The patient's name in one of its shapes, labelled.
fn name(b: &mut B, r: &mut Rng, p: &Pt) {
    let n = match r.below(8) {
        0 => format!("{} {}", p.first, p.last),
        1 => format!("{}, {}", p.last, p.first),
        2 => format!("{} {}", p.first, p.last).to_uppercase(),
        3 => format!("{}. {}", p.first.chars().next().unwrap(), p.last),
        4 => format!("{} {}", p.first, p.last).to_lowercase(),
        5 => {
            b.p(&p.first).t(" \"").p(&p.nick).t("\" ").p(&p.last);
            return;
        }
        6 => format!("{} {}. {}", p.first, r.upper(1), p.last),
        _ => format!("{} {}", p.first, p.last),
    };
    b.p(&n);
}

fn full(p: &Pt) -> String {
    format!("{} {}", p.first, p.last)
}

fn dob(b: &mut B, r: &mut Rng, p: &Pt) {
    let s = date_form(r, p.y, p.m, p.d);
    b.d(&s);
}

fn visit(r: &mut Rng) -> (u32, u32, u32) {
    (
        2024 + r.below(3) as u32,
        1 + r.below(12) as u32,
        1 + r.below(28) as u32,
    )
}

fn vdate(b: &mut B, r: &mut Rng) {
    let (y, m, d) = visit(r);
    let s = date_form(r, y, m, d);
    b.d(&s);
}

fn phone(b: &mut B, r: &mut Rng, p: &str) {
    let s = phone_form(r, p);
    b.k(Kind::Phone, &s);
}

fn addr(b: &mut B, p: &Pt, sep: &str) {
    b.k(Kind::Address, &p.street)
        .t(sep)
        .t(&p.city)
        .t(" ")
        .k(Kind::Zip, &p.zip);
}

fn staff(r: &mut Rng) -> &'static str {
    r.pick(STAFF)
}

fn code(r: &mut Rng) -> &'static str {
    r.pick(CODES)
}

fn luhn(r: &mut Rng) -> String {
    let mut d: Vec<u32> = format!("4{}", r.digits(14))
        .chars()
        .map(|c| c.to_digit(10).unwrap())
        .collect();
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
    let s: String = d
        .iter()
        .map(|x| char::from_digit(*x, 10).unwrap())
        .collect();
    format!("{} {} {} {}", &s[..4], &s[4..8], &s[8..12], &s[12..])
}

fn referral(b: &mut B, r: &mut Rng, p: &Pt, q: &Pt) {
    let s = staff(r);
    if r.below(3) == 0 {
        // A third way: a memo layout with a cc list of relatives.
        b.t("MEMO\nTO: Geriatric Assessment Clinic\nFROM: ")
            .t(s)
            .t("\nDATE: ");
        vdate(b, r);
        b.t("\nRE: ");
        b.p(&format!(
            "{}, {} {}.",
            p.last.to_uppercase(),
            p.first,
            r.upper(1)
        ));
        b.t(" | DOB ");
        dob(b, r, p);
        b.t(" | Acct ").k(Kind::Account, &p.acct);
        b.t("\n\nThis ");
        age(b, r);
        b.t(" gentleman needs a memory evaluation (")
            .t(code(r))
            .t(").\n\ncc: ");
        b.p(&full(q)).t(" (HCP), ");
        b.p(&format!("{} {}", r.pick(FIRST), p.last)).t(", file\n");
        return;
    }
    if r.below(2) == 0 {
        b.t(CLINIC)
            .t("\n1180 Wyoming Ave, Scranton PA · tel ")
            .k(Kind::Phone, "570-344-0900")
            .t(" · fax ")
            .k(Kind::Fax, "570-344-0911")
            .t("\n\n");
        vdate(b, r);
        b.t("\n\nRe: ");
        name(b, r, p);
        b.t(" (DOB ");
        dob(b, r, p);
        b.t(", MRN ")
            .k(Kind::Mrn, &p.mrn)
            .t(")\n\nDear Colleague,\n\nThank you for seeing this ");
        age(b, r);
        b.t(" woman for ")
            .t(code(r))
            .t(". She lives with her daughter ");
        b.p(&format!("{} {}", q.first, p.last));
        b.t(" at ");
        addr(b, p, ", ");
        b.t("; best number ");
        phone(b, r, &p.phone);
        b.t(".\n\nSincerely,\n").t(s).t(", MD\ncc: ");
        b.p(&format!("{} {}", q.first, p.last)).t("; chart\n");
    } else {
        b.t("REFERRAL — ")
            .t(r.pick(&["Cardiology", "Nephrology", "Audiology", "Geriatrics"]));
        b.t("\nPatient: ");
        b.p(&format!(
            "{}, {}",
            p.last.to_uppercase(),
            p.first.to_uppercase()
        ));
        b.t("   Birth date: ");
        dob(b, r, p);
        b.t("\nInsurance: ")
            .t(r.pick(PAYERS))
            .t("  ID# ")
            .k(Kind::HealthPlan, &p.member);
        b.t("\nHome: ");
        addr(b, p, " / ");
        b.t("\nPh: ");
        phone(b, r, &p.phone);
        b.t("   Return fax: ");
        let f = format!("570-{}-{}", r.digits(3), r.digits(4));
        b.k(Kind::Fax, &f);
        b.t("\nReason: ")
            .t(code(r))
            .t(", on ")
            .t(r.pick(DRUGS))
            .t("\nReferring: ")
            .t(s)
            .t("\n");
    }
}

fn hl7adt(b: &mut B, r: &mut Rng, p: &Pt, q: &Pt) {
    let ty = r.pick(&["A01", "A03", "A08"]);
    let (y, m, d) = visit(r);
    b.t("MSH|^~\\&|EPIC|LVFH|HIS|LVFH|")
        .d(&format!("{y}{m:02}{d:02}"))
        .t(&format!("1422||ADT^{ty}|MSG{}|P|2.5.1\r", r.digits(8)));
    b.t("EVN|").t(ty).t("|");
    b.d(&format!("{y}{m:02}{d:02}"));
    b.t("1422\rPID|1||")
        .k(Kind::Mrn, &p.mrn)
        .t("^^^LVFH^MR~")
        .k(
            Kind::Ssn,
            &format!("{}-{}-{}", r.digits(3), r.digits(2), r.digits(4)),
        );
    b.t("^^^SSA^SS||");
    let suf = r.pick(&["", "JR", "III", "SR"]);
    b.p(&format!(
        "{}^{}^{}^{}",
        p.last.to_uppercase(),
        p.first.to_uppercase(),
        r.upper(1),
        suf
    ));
    b.t("||");
    b.d(&format!("{}{:02}{:02}", p.y, p.m, p.d));
    b.t("|F|||");
    b.k(Kind::Address, &p.street.to_uppercase());
    b.t("^^")
        .t(&p.city.replace(", ", "^"))
        .t("^")
        .k(Kind::Zip, &p.zip)
        .t("||");
    b.k(
        Kind::Phone,
        &format!("({}){}-{}", &p.phone[..3], &p.phone[3..6], &p.phone[6..]),
    );
    b.t("|||||").k(Kind::Account, &p.acct).t("\r");
    if r.below(2) == 0 {
        b.t("NK1|1|");
        b.p(&format!(
            "{}^{}",
            p.last.to_uppercase(),
            q.first.to_uppercase()
        ));
        b.t("|SON|||");
        b.k(Kind::Phone, &q.phone);
        b.t("\r");
    }
    b.t("PV1|1|I|4W^");
    b.k(Kind::Room, &format!("{}", 400 + r.below(60)));
    b.t("^B|||||1487736210^FARADAY^IMOGEN|||MED\rIN1|1|KMH01|")
        .t(r.pick(PAYERS))
        .t("||||||||||||||||||||||||||||||");
    b.k(Kind::HealthPlan, &p.member);
    b.t("\r");
}

fn hl7oru(b: &mut B, r: &mut Rng, p: &Pt, _q: &Pt) {
    let (y, m, d) = visit(r);
    if r.below(3) == 0 {
        // A third way: an MDM document notification with a transcribed note.
        b.t("MSH|^~\\&|DICT|LVFH|EHR|LVFH|")
            .d(&format!("{y}{m:02}{d:02}"))
            .t("1610||MDM^T02|D")
            .t(&r.digits(6))
            .t("|P|2.5\nPID|1||")
            .k(Kind::Mrn, &p.mrn)
            .t("^^^LVFH^MR||");
        let suf = r.pick(&["", "II", "JR"]);
        b.p(&format!("{}^{}^^{}", p.last, p.first, suf));
        b.t("||");
        b.d(&format!("{}{:02}{:02}", p.y, p.m, p.d));
        b.t("\nTXA|1|CN|TX|");
        b.d(&format!("{y}{m:02}{d:02}"));
        b.t("||||||||DOC")
            .t(&r.digits(5))
            .t("\nOBX|1|TX|||")
            .t("Pt is a ");
        age(b, r);
        b.t(" \\T\\ lives alone at ");
        b.k(Kind::Address, &p.street);
        b.t("\n");
        return;
    }
    b.t("MSH|^~\\&|LAB|LVFH|EHR|LVFH|")
        .d(&format!("{y}{m:02}{d:02}"))
        .t(&format!("0801||ORU^R01|L{}|P|2.3\n", r.digits(6)));
    b.t("PID|||").k(Kind::Mrn, &p.mrn).t("||");
    b.p(&format!("{}^{}", p.last, p.first));
    b.t("||");
    b.d(&format!("{}{:02}{:02}", p.y, p.m, p.d));
    b.t("|M\nOBR|1|ORD")
        .t(&r.digits(6))
        .t("||")
        .t("LOINC 4548-4^HbA1c|||");
    b.d(&format!("{y}{m:02}{d:02}"));
    b.t("0745\nOBX|1|NM|4548-4^Hemoglobin A1c||7.9|%|4.0-5.6|H|||F\n");
    if r.below(2) == 0 {
        b.t("NTE|1||Called result to pt's wife ");
        b.p(&format!("{} {}", r.pick(FIRST), p.last));
        b.t(" at ");
        phone(b, r, &p.phone);
        b.t(" \\T\\ left msg\n");
    } else {
        b.t("NTE|1||Pt is ");
        age(b, r);
        b.t(", fasting per pt\n");
    }
}

fn hl7siu(b: &mut B, r: &mut Rng, p: &Pt, _q: &Pt) {
    let (y, m, d) = visit(r);
    if r.below(3) == 0 {
        // A third way: a DFT charge with the guarantor and the subscriber.
        b.t("MSH|^~\\&|BILL|LVFH|||")
            .d(&format!("{y}{m:02}{d:02}"))
            .t("||DFT^P03|B")
            .t(&r.digits(7))
            .t("|P|2.3\nPID|1||")
            .k(Kind::Mrn, &p.mrn)
            .t("||");
        b.p(&format!(
            "{}^{}",
            p.last.to_uppercase(),
            p.first.to_uppercase()
        ));
        b.t("||");
        b.d(&format!("{}{:02}{:02}", p.y, p.m, p.d));
        b.t("|M\nFT1|1|||");
        b.d(&format!("{y}{m:02}{d:02}"));
        b.t("||CG|99214^OFFICE VISIT|||1\nGT1|1||");
        b.p(&format!(
            "{}^{}",
            p.last.to_uppercase(),
            r.pick(FIRST).to_uppercase()
        ));
        b.t("||");
        b.k(Kind::Address, &p.street);
        b.t("^^")
            .t(&p.city.replace(", ", "^"))
            .t("^")
            .k(Kind::Zip, &p.zip)
            .t("|");
        b.k(Kind::Phone, &p.phone);
        b.t("\nIN1|1|AHP|")
            .t(r.pick(PAYERS))
            .t("|||||||||||||||||||||||||||||||");
        b.k(Kind::HealthPlan, &p.member).t("\n");
        return;
    }
    b.t("MSH|^~\\&|SCHED|LVFH|||")
        .d(&format!("{y}{m:02}{d:02}"))
        .t(&format!("||SIU^S12|S{}|P|2.4\n", r.digits(7)));
    b.t("SCH|")
        .t(&r.digits(6))
        .t("||||||ROUTINE^F/U|||30|MIN|^^30^");
    b.d(&format!("{y}{m:02}{d:02}"));
    b.t("0930\nPID|1||").k(Kind::Mrn, &p.mrn).t("^^^LVFH||");
    b.p(&format!(
        "{}^{}^^",
        p.last.to_uppercase(),
        p.first.to_uppercase()
    ));
    b.t("||");
    b.d(&format!("{}{:02}{:02}", p.y, p.m, p.d));
    b.t("|F||||||");
    b.k(Kind::Phone, &p.phone).t("^PRN^PH");
    b.t("~^NET^Internet^")
        .k(Kind::Email, &p.email)
        .t("\nAIP|1||")
        .t("1487736210^OSEI^RAFFERTY\n");
}

fn voicemail(b: &mut B, r: &mut Rng, p: &Pt, q: &Pt) {
    let ord = ORD[p.d as usize - 1];
    let mon = MONTHS[p.m as usize - 1].to_lowercase();
    if r.below(3) == 0 {
        // A third way: the day before the month, zeros said "oh", a nickname.
        b.t("msg from mailbox 2 ... hey its ");
        b.p(&p.nick.to_lowercase());
        b.t(" well ");
        b.p(&p.first.to_lowercase());
        b.t(" really birthday the ");
        b.d(&format!("{ord} of {mon} {}", spoken_year(p.y)));
        b.t(" my grandson ");
        b.p(&format!("{} {}", q.first, q.last).to_lowercase());
        b.t(" set this up ring me on ");
        b.k(Kind::Phone, &spoken_digits(&p.phone).replace("zero", "oh"));
        b.t(" im ");
        let a = 90 + r.below(9) as u32;
        b.k(Kind::Age, &age_word(a).replace('-', " "));
        b.t(" so be patient ok bye");
        return;
    }
    if r.below(2) == 0 {
        b.t("voicemail ")
            .t(&format!("{}:{:02} ", 1 + r.below(12), r.below(60)));
        b.t("hi this is ");
        b.p(&format!("{} {}", p.first, p.last).to_lowercase());
        b.t(" um my date of birth is ");
        b.d(&format!("{mon} {ord} {}", spoken_year(p.y)));
        b.t(" im calling about my refill for the ").t(r.pick(&[
            "water pill",
            "blood thinner",
            "thyroid",
        ]));
        b.t(" please call me back at ");
        b.k(Kind::Phone, &spoken_digits(&p.phone));
        b.t(" thank you bye");
    } else {
        b.t("[transcribed] yes hello its ");
        b.p(&q.first.to_lowercase());
        b.t(" calling for my mother ");
        b.p(&format!("{} {}", p.first, p.last).to_lowercase());
        b.t(" shes ");
        let a = 90 + r.below(12) as u32;
        b.k(Kind::Age, &age_word(a));
        b.t(" and fell again last night her chart number is ");
        b.k(Kind::Mrn, &spoken_digits(&p.mrn));
        b.t(" you can reach me at ");
        b.k(Kind::Phone, &spoken_digits(&q.phone));
        b.t(" after five thanks");
    }
}

fn schedchat(b: &mut B, r: &mut Rng, p: &Pt, q: &Pt) {
    let a = r.pick(STAFF_FIRST);
    let c = r.pick(STAFF_FIRST);
    if r.below(2) == 0 {
        b.t(&format!(
            "[{}:{:02}] {a}: can we squeeze ",
            8 + r.below(9),
            r.below(60)
        ));
        b.p(&p.first.to_lowercase());
        b.t(" ");
        b.p(&p.last.to_lowercase());
        b.t(" in tmrw? dob ");
        dob(b, r, p);
        b.t("\n")
            .t(&format!("[{}:{:02}] {c}: ", 8 + r.below(9), r.below(60)));
        b.t("the ");
        age(b, r);
        b.t("? sure 2:40 w/ dr f. her son parks in the back, plate ");
        b.k(Kind::Vehicle, &format!("{}-{}", r.upper(3), r.digits(4)));
        b.t("\n")
            .t(&format!("{a}: ty. also "))
            .p(&p.nick)
            .t(" moved to ")
            .k(Kind::Room, &format!("{}", 100 + r.below(30)))
            .t(" on the rehab side\n");
    } else {
        b.t(a).t(" -> ").t(c).t(": pt ");
        b.p(&format!("{} {}", p.first, p.last));
        b.t(" cx'd thurs, wants mon am. cell ");
        phone(b, r, &p.phone);
        b.t("\n").t(c).t(": ok booked, and her hubby ");
        b.p(&format!("{} {}", q.first, p.last));
        b.t(" same day? mrn ")
            .k(Kind::Mrn, &q.mrn)
            .t("\n")
            .t(a)
            .t(": yes pls\n");
    }
}

fn billing(b: &mut B, r: &mut Rng, p: &Pt, _q: &Pt) {
    if r.below(3) == 0 {
        // A third way: EOB-like lines from the payer.
        b.t(r.pick(PAYERS))
            .t(" · Explanation of Benefits\nMember: ");
        name(b, r, p);
        b.t("   ID ").k(Kind::HealthPlan, &p.member);
        b.t("\nClaim 25-")
            .t(&r.digits(7))
            .t("  Provider: ")
            .t(CLINIC);
        b.t("\n  svc ");
        vdate(b, r);
        b.t("  ")
            .t(code(r))
            .t("  billed 210.00  allowed 131.55  plan paid 105.24  you owe 26.31\n");
        return;
    }
    if r.below(2) == 0 {
        b.t("STATEMENT  ").t(CLINIC).t("\nStatement date: ");
        vdate(b, r);
        b.t("\nGuarantor: ");
        name(b, r, p);
        b.t("\n");
        addr(b, p, "\n");
        b.t("\nAccount no. ")
            .k(Kind::Account, &p.acct)
            .t("\n\nDOS        CODE       CHARGE   INS PAID  YOU OWE\n");
        vdate(b, r);
        b.t("  CPT 99214  $185.00  $122.40  $62.60\nQuestions? Call ");
        b.k(Kind::Phone, "570-344-0900").t(".\n");
    } else {
        b.t("Payment plan request\nPatient ");
        name(b, r, p);
        b.t(", acct #")
            .k(Kind::Account, &p.acct)
            .t(", member ")
            .k(Kind::HealthPlan, &p.member);
        b.t("\nCard on file: ")
            .k(Kind::Card, &luhn(r))
            .t(" exp 09/28\n$40.00 monthly starting ");
        vdate(b, r);
        b.t("\nQuestions: ").k(Kind::Email, &p.email).t("\n");
    }
}

fn collections(b: &mut B, r: &mut Rng, p: &Pt, _q: &Pt) {
    if r.below(2) == 0 {
        b.t("FINAL NOTICE\n\n");
        b.p(&format!("{} {}", p.first, p.last).to_uppercase());
        b.t("\n")
            .k(Kind::Address, &p.street.to_uppercase())
            .t("\n")
            .t(&p.city.to_uppercase())
            .t(" ")
            .k(Kind::Zip, &format!("{}-{}", p.zip, r.digits(4)));
        b.t("\n\nRef: ").k(Kind::Account, &format!("LV-{}", p.acct)).t("   Balance $412.18\nYour account will be referred to Penn Recovery Services after ");
        vdate(b, r);
        b.t(". Call ")
            .k(Kind::Phone, "1-800-555-0142")
            .t(" (office).\n");
    } else {
        b.t("Collector notes, acct ")
            .k(Kind::Account, &p.acct)
            .t(": spoke w/ ");
        b.p(&p.first);
        b.t(" (guarantor for mother, ");
        age(b, r);
        b.t("). New number ");
        phone(b, r, &p.phone);
        b.t(", SSN last verified ").k(
            Kind::Ssn,
            &format!("{}-{}-{}", r.digits(3), r.digits(2), r.digits(4)),
        );
        b.t(". Promise to pay ");
        vdate(b, r);
        b.t(".\n");
    }
}

fn attach(b: &mut B, r: &mut Rng, p: &Pt, _q: &Pt) {
    let (y, m, d) = visit(r);
    let l = p.last.replace([' ', '\''], "");
    match r.below(3) {
        0 => {
            b.t("Attachments:\n  ")
                .p(&l)
                .t("_")
                .p(&p.first)
                .t("_MRN")
                .k(Kind::Mrn, &p.mrn)
                .t("_");
            b.d(&format!("{y}{m:02}{d:02}"));
            b.t(".pdf (212 KB)\n  echo-report-");
            b.p(&l.to_lowercase());
            b.t("-").d(&format!("{m:02}-{d:02}-{y}")).t(".docx\n");
        }
        1 => {
            b.t("scan_")
                .k(Kind::HealthPlan, &p.member)
                .t("_")
                .p(&format!("{}{}", p.first, l))
                .t("_DOB");
            b.d(&format!("{:02}{:02}{}", p.m, p.d, p.y));
            b.t(".tif\nLabsFor")
                .p(&l)
                .t("MRN")
                .k(Kind::Mrn, &p.mrn)
                .t(".xlsx\n");
        }
        _ => {
            b.t("FW: files\n- ")
                .p(&l.to_uppercase())
                .t(".")
                .p(&p.first.to_uppercase())
                .t(".")
                .d(&format!("{y}.{m:02}.{d:02}"))
                .t(".consent.pdf\n- acct")
                .k(Kind::Account, &p.acct)
                .t("-statement.pdf\n");
        }
    }
}

fn subjects(b: &mut B, r: &mut Rng, p: &Pt, q: &Pt) {
    b.t("Subject: ");
    if r.below(2) == 0 {
        b.t("RE: ");
        b.p(&format!("{}, {}", p.last, p.first));
        b.t(" DOB ");
        dob(b, r, p);
        b.t(" - MRN#").k(Kind::Mrn, &p.mrn).t(" - f/u labs\n");
        b.t("Subject: URGENT pt ");
        b.p(&format!("{}{}", q.first, q.last.replace(' ', "")));
        b.t(" callback ");
        phone(b, r, &q.phone);
        b.t("\n");
    } else {
        b.t("[EXT] records request for ");
        b.p(&format!("{} {}", p.first, p.last).to_uppercase());
        b.t(" / ").k(Kind::HealthPlan, &p.member).t(" / DOS ");
        vdate(b, r);
        b.t("\nSubject: ").t(code(r)).t(" question — ");
        b.p(&q.last);
        b.t(" ");
        age(b, r);
        b.t("\n");
    }
}

fn fwdthread(b: &mut B, r: &mut Rng, p: &Pt, q: &Pt) {
    let s = staff(r);
    if r.below(2) == 0 {
        b.t("Forwarding to front desk, see below.\n\nOn ");
        vdate(b, r);
        b.t(", at 3:12 PM, ");
        b.p(&full(p));
        b.t(" <")
            .k(Kind::Email, &p.email)
            .t("> wrote:\n> Hello, I need to move my appt. My husband ");
        b.p(&q.first);
        b.t(" drives me.\n> my cell is ");
        phone(b, r, &p.phone);
        b.t("\n> thanks, ");
        b.p(&p.first);
        b.t("\n");
    } else {
        b.t("---------- Forwarded message ---------\nFrom: ")
            .t(s)
            .t(" <scheduling@lvfh.org>\nDate: ");
        vdate(b, r);
        b.t("\nSubject: Fwd: ");
        b.p(&full(q));
        b.t("\n\n>> Pt ");
        b.p(&full(q));
        b.t(" (").k(Kind::Mrn, &q.mrn).t(") lives at ");
        addr(b, q, ", ");
        b.t("\n>> Needs transport; ");
        age(b, r);
        b.t(".\n");
    }
}

fn portal(b: &mut B, r: &mut Rng, p: &Pt, _q: &Pt) {
    if r.below(2) == 0 {
        b.t("Secure message from ");
        name(b, r, p);
        b.t("\nSent ");
        vdate(b, r);
        b.t(" 9:14 PM from ").k(
            Kind::Ip,
            &format!(
                "{}.{}.{}.{}",
                24 + r.below(150),
                r.below(256),
                r.below(256),
                1 + r.below(254)
            ),
        );
        b.t("\n\nHi, the rash is back. Photo at ");
        b.k(
            Kind::Url,
            &format!("https://portal.lvfh.org/media?pid={}&img=2", p.mrn),
        );
        b.t(" . Thanks\n");
    } else {
        b.t("MyLVFH message · Re: test results\nPatient ");
        b.p(&format!("{} {}", p.first, p.last));
        b.t(" (")
            .k(Kind::Mrn, &p.mrn)
            .t(") writes:\nCan I get a letter for my job? My new address is ");
        addr(b, p, ", ");
        b.t(" and email ").k(Kind::Email, &p.email).t(".\n");
    }
}

fn refillfax(b: &mut B, r: &mut Rng, p: &Pt, _q: &Pt) {
    let f = format!(
        "({}) {}-{}",
        r.pick(&["570", "484"]),
        r.digits(3),
        r.digits(4)
    );
    if r.below(2) == 0 {
        b.t("RX REFILL REQUEST   Birney Pharmacy   FAX TO: ")
            .k(Kind::Fax, "570-344-0911")
            .t("\nFROM FAX: ")
            .k(Kind::Fax, &f);
        b.t("\nPATIENT: ");
        b.p(&format!(
            "{}, {}",
            p.last.to_uppercase(),
            p.first.to_uppercase()
        ));
        b.t("  DOB: ");
        dob(b, r, p);
        b.t("\nPHONE: ");
        phone(b, r, &p.phone);
        b.t("\nDRUG: ")
            .t(r.pick(DRUGS))
            .t("  ")
            .t("NDC 0093-7146-56  QTY 90\nLAST FILL: ");
        vdate(b, r);
        b.t("\n");
    } else {
        b.t("Pharmacy fax → please refill\nPt ");
        name(b, r, p);
        b.t(" / ");
        age(b, r);
        b.t(" / member ")
            .k(Kind::HealthPlan, &p.member)
            .t("\nRx: ")
            .t(r.pick(DRUGS))
            .t("\nReply fax ")
            .k(Kind::Fax, &f)
            .t("\n");
    }
}

fn priorauth(b: &mut B, r: &mut Rng, p: &Pt, _q: &Pt) {
    let f = format!("1-866-{}-{}", r.digits(3), r.digits(4));
    b.t("PRIOR AUTHORIZATION — FAX COVER\nTo: ")
        .t(r.pick(PAYERS))
        .t("  Fax: ")
        .k(Kind::Fax, &f);
    b.t("\nFrom: ").t(CLINIC).t("\nMember: ");
    if r.below(2) == 0 {
        b.p(&format!("{} {}", p.first, p.last));
        b.t("   Member ID: ").k(Kind::HealthPlan, &p.member);
        b.t("\nDOB: ");
        dob(b, r, p);
        b.t("   Service: ")
            .t("HCPCS E0431 portable O2")
            .t("\nPages: 4\n");
    } else {
        b.p(&format!("{}, {}", p.last, p.first));
        b.t("\nSubscriber #")
            .k(Kind::HealthPlan, &p.member)
            .t(" · Acct ")
            .k(Kind::Account, &p.acct);
        b.t("\nRequested ");
        vdate(b, r);
        b.t(" for ").t(code(r)).t("\n");
    }
}

fn discharge(b: &mut B, r: &mut Rng, p: &Pt, q: &Pt) {
    b.t("DISCHARGE SUMMARY\nName: ");
    name(b, r, p);
    b.t("    MRN: ")
        .k(Kind::Mrn, &p.mrn)
        .t("    Rm ")
        .k(Kind::Room, &format!("{}{}", 2 + r.below(5), r.digits(2)));
    if r.below(2) == 0 {
        b.t("\nAdmitted: ");
        vdate(b, r);
        b.t("   Discharged: ");
        vdate(b, r);
        b.t("\nHPI: ");
        age(b, r);
        b.t(" with CHF exacerbation (")
            .t(code(r))
            .t(").\nDischarged home to ");
        addr(b, p, ", ");
        b.t(" with daughter ");
        b.p(&format!("{} {}", q.first, q.last));
        b.t(".\n");
    } else {
        b.t("\nCourse: diuresed, on ")
            .t(r.pick(DRUGS))
            .t(".\nF/U with Dr. ")
            .t(staff(r))
            .t(" within 7 days; pt's grandson ");
        b.p(&q.first);
        b.t(" (")
            .k(Kind::Phone, &phone_form(r, &q.phone))
            .t(") will drive.\nDL on file: PA ")
            .k(Kind::License, &r.digits(8));
        b.t("\n");
    }
}

fn soap(b: &mut B, r: &mut Rng, p: &Pt, q: &Pt) {
    if r.below(2) == 0 {
        b.t("S: ");
        age(b, r);
        b.t(" pt ");
        b.p(&p.last);
        b.t(" c/o SOB x3d, hx AFib. lives w/ spouse ");
        b.p(&q.first);
        b.t(".\nO: BP 148/86 HR 92 SpO2 91% RA\nA: ")
            .t(code(r))
            .t("\nP: f/u 2 wk, ")
            .t(r.pick(DRUGS))
            .t(". seen ");
        vdate(b, r);
        b.t("\n");
    } else {
        b.t("SUBJ - ");
        b.p(&format!("{}. {}", p.first.chars().next().unwrap(), p.last));
        b.t(", ");
        let a = 90 + r.below(10);
        b.k(Kind::Age, &a.to_string())
            .t(r.pick(&["F", "M", " y/o F"]));
        b.t(", DOB ");
        dob(b, r, p);
        b.t(", pt reports dizziness; dtr ");
        b.p(&format!("{} {}", q.first, q.last));
        b.t(" present\nOBJ - T 98.4, wt 61 kg\nA/P - orthostatic; hold ")
            .t(r.pick(DRUGS))
            .t("\n");
    }
}

fn hospice(b: &mut B, r: &mut Rng, p: &Pt, q: &Pt) {
    if r.below(2) == 0 {
        b.t("HOSPICE ADMISSION — Comfort Crest Hospice\nPatient: ");
        name(b, r, p);
        b.t("  (");
        age(b, r);
        b.t(")\nElection date: ");
        vdate(b, r);
        b.t("   DOB ");
        dob(b, r, p);
        b.t("\nPOA/primary caregiver: ");
        b.p(&format!("{} {}", q.first, q.last));
        b.t(", ");
        phone(b, r, &q.phone);
        b.t("\nResidence: ");
        addr(b, p, ", ");
        b.t("\nMedicare ").k(
            Kind::HealthPlan,
            &format!("{}{}{}", r.digits(1), r.upper(2), r.digits(7)),
        );
        b.t("\n");
    } else {
        b.t("Inpatient hospice unit, bed ").k(
            Kind::Room,
            &format!("{}{}", 10 + r.below(20), r.pick(&["A", "B"])),
        );
        b.t(". ");
        b.p(&format!("{} {}", p.first, p.last));
        b.t(" arrived by ambulance; family car plate ")
            .k(Kind::Vehicle, &format!("{}{}", r.upper(2), r.digits(5)));
        b.t(" ok in lot. ID: PA DL ")
            .k(Kind::License, &r.digits(8))
            .t(". Chaplain ")
            .t(staff(r))
            .t(" notified.\n");
    }
}

fn homehealth(b: &mut B, r: &mut Rng, p: &Pt, q: &Pt) {
    if r.below(2) == 0 {
        b.t("HOME HEALTH VISIT NOTE  SN visit ");
        vdate(b, r);
        b.t("\nClient: ");
        name(b, r, p);
        b.t(", ");
        age(b, r);
        b.t("\nAddress: ");
        addr(b, p, ", ");
        b.t("\nO2 concentrator SN ").k(
            Kind::Device,
            &format!("{}{}", r.pick(&["IC5-", "EV-", "PLT"]), r.digits(7)),
        );
        b.t(" checked, 2 L NC. Wound dressing per ")
            .t(code(r))
            .t(".\n");
    } else {
        b.t("HH aide log — ");
        b.p(&p.first);
        b.t(" ");
        b.p(&p.last);
        b.t(": bathed, lunch. Neighbor ");
        b.p(&q.first);
        b.t(" has key. Gate code 4411. Pump serial ")
            .k(Kind::Device, &format!("SN{}", r.digits(9)));
        b.t(". Next visit ");
        vdate(b, r);
        b.t(", call ");
        phone(b, r, &p.phone);
        b.t(" first.\n");
    }
}

fn newborn(b: &mut B, r: &mut Rng, p: &Pt, q: &Pt) {
    let (y, m, d) = visit(r);
    if r.below(2) == 0 {
        b.t("NEWBORN SCREENING — out-of-range result\nInfant: BABY GIRL ");
        b.p(&p.last.to_uppercase());
        b.t("\nBirth date: ");
        let s = date_form(r, y, m, d);
        b.d(&s);
        b.t("   Mother: ");
        b.p(&format!("{} {}", q.first, p.last));
        b.t("  MRN ").k(Kind::Mrn, &q.mrn).t("\nMother's phone ");
        phone(b, r, &q.phone);
        b.t("\nAnalyte: TSH 38 mIU/L (").t("LOINC 29575-6").t(")\n");
    } else {
        b.t("Callback log: repeat heel stick for infant ");
        b.p(&format!("{} {}", p.first, p.last));
        b.t(" born ");
        b.d(&format!("{m}/{d}"));
        b.t(". Spoke with father ");
        b.p(&format!("{} {}", q.first, p.last));
        b.t(", address ");
        addr(b, p, ", ");
        b.t(". Grandma (");
        age(b, r);
        b.t(") lives with them.\n");
    }
}

fn slack(b: &mut B, r: &mut Rng, p: &Pt, q: &Pt) {
    let a = r.pick(STAFF_FIRST).to_lowercase();
    let c = r.pick(STAFF_FIRST).to_lowercase();
    if r.below(2) == 0 {
        b.t(&format!("#front-desk\n@{a} 10:02 AM\nanyone know why "));
        b.p(&p.first.to_lowercase());
        b.t(" ");
        b.p(&p.last.to_lowercase());
        b.t("'s portal login fails? ip ").k(
            Kind::Ip,
            &format!("10.{}.{}.{}", r.below(256), r.below(256), 1 + r.below(254)),
        );
        b.t(&format!("\n@{c} 10:05 AM\nlocked out, reset sent to "));
        b.k(Kind::Email, &p.email);
        b.t(" :thumbsup:\n");
    } else {
        b.t(&format!("#nursing  {a}: :warning: "))
            .p(&full(p))
            .t(" (");
        age(b, r);
        b.t(", rm ")
            .k(Kind::Room, &format!("{}", 300 + r.below(40)))
            .t(") family says ");
        b.p(&q.first);
        b.t(" is coming at 4\n").t(&c).t(": :eyes: got it, dob ");
        dob(b, r, p);
        b.t(" confirmed\n");
    }
}

fn vietnamese(b: &mut B, r: &mut Rng, p: &Pt, q: &Pt) {
    b.t("Chào bác sĩ, tôi là ");
    b.p(&full(p));
    b.t(", sinh ngày ");
    let s = eu_date(r, p.y, p.m, p.d);
    b.d(&s);
    if r.below(2) == 0 {
        b.t(". Mẹ tôi ");
        b.p(&q.first);
        b.t(" năm nay ");
        let a = 90 + r.below(10);
        b.k(Kind::Age, &a.to_string())
            .t(" tuổi, bị té ngã. Số điện thoại: ");
        phone(b, r, &p.phone);
        b.t(". Cảm ơn.\n");
    } else {
        b.t(". Địa chỉ mới: ");
        addr(b, p, ", ");
        b.t(". Mã bảo hiểm ")
            .k(Kind::HealthPlan, &p.member)
            .t(". Email: ")
            .k(Kind::Email, &p.email)
            .t("\n");
    }
}

fn kreyol(b: &mut B, r: &mut Rng, p: &Pt, q: &Pt) {
    b.t("Bonjou, mwen se ");
    b.p(&full(p));
    if r.below(2) == 0 {
        b.t(". Dat nesans mwen se ");
        let s = eu_date(r, p.y, p.m, p.d);
        b.d(&s);
        b.t(". Manman m ");
        b.p(&q.first);
        b.t(" gen ");
        let a = 90 + r.below(10);
        b.k(Kind::Age, &a.to_string())
            .t(" an, li malad. Rele m nan ");
        phone(b, r, &p.phone);
        b.t(". Mèsi.\n");
    } else {
        b.t(", nimewo dosye m se ")
            .k(Kind::Mrn, &p.mrn)
            .t(". Mwen rete ");
        addr(b, p, ", ");
        b.t(". Randevou m se ");
        vdate(b, r);
        b.t(".\n");
    }
}

fn polish(b: &mut B, r: &mut Rng, p: &Pt, q: &Pt) {
    b.t("Dzień dobry, nazywam się ");
    b.p(&full(p));
    if r.below(2) == 0 {
        b.t(", data urodzenia ");
        let s = eu_date(r, p.y, p.m, p.d);
        b.d(&s);
        b.t(". Mój ojciec ");
        b.p(&format!("{} {}", q.first, p.last));
        b.t(" ma ");
        let a = 90 + r.below(10);
        b.k(Kind::Age, &a.to_string()).t(" lat. Proszę o telefon: ");
        phone(b, r, &p.phone);
        b.t(". Pozdrawiam\n");
    } else {
        b.t(". Numer karty pacjenta ")
            .k(Kind::Mrn, &p.mrn)
            .t(", ubezpieczenie ")
            .k(Kind::HealthPlan, &p.member);
        b.t(". Adres: ");
        addr(b, p, ", ");
        b.t(". Wizyta ");
        vdate(b, r);
        b.t(".\n");
    }
}

fn ptbr(b: &mut B, r: &mut Rng, p: &Pt, q: &Pt) {
    b.t("Olá, aqui é ");
    b.p(&full(p));
    if r.below(2) == 0 {
        b.t(", nascida em ");
        let s = eu_date(r, p.y, p.m, p.d);
        b.d(&s);
        b.t(". Minha avó ");
        b.p(&q.first);
        b.t(" tem ");
        let a = 90 + r.below(10);
        b.k(Kind::Age, &a.to_string())
            .t(" anos e precisa de consulta. Meu WhatsApp: ");
        phone(b, r, &p.phone);
        b.t(". Obrigada!\n");
    } else {
        b.t(". Meu e-mail é ")
            .k(Kind::Email, &p.email)
            .t(" e moro na ");
        addr(b, p, ", ");
        b.t(". Prontuário ").k(Kind::Mrn, &p.mrn).t(". Abraço\n");
    }
}

type Fam = fn(&mut B, &mut Rng, &Pt, &Pt);

const GENS: [Fam; 24] = [
    referral,
    hl7adt,
    hl7oru,
    hl7siu,
    voicemail,
    schedchat,
    billing,
    collections,
    attach,
    subjects,
    fwdthread,
    portal,
    refillfax,
    priorauth,
    discharge,
    soap,
    hospice,
    homehealth,
    newborn,
    slack,
    vietnamese,
    kreyol,
    polish,
    ptbr,
];

pub fn generate(seed: u64, n: usize) -> Set {
    let mut r = Rng(seed);
    let pts: Vec<Pt> = (0..99).map(|i| patient(&mut r, i)).collect();
    let mut docs = Vec::with_capacity(n);
    for i in 0..n {
        let f = i % FAMILIES.len();
        let p = &pts[r.below(pts.len())];
        let q = &pts[r.below(pts.len())];
        let mut b = B::default();
        GENS[f](&mut b, &mut r, p, q);
        docs.push(b.done(FAMILIES[f]));
    }
    let roster = pts.iter().step_by(3).map(full).collect();
    let mut keep: Vec<String> = STAFF.iter().map(|s| s.to_string()).collect();
    keep.push(CLINIC.to_string());
    keep.extend(PAYERS.iter().map(|s| s.to_string()));
    keep.extend(
        [
            "Comfort Crest Hospice",
            "Birney Pharmacy",
            "Penn Recovery Services",
        ]
        .map(String::from),
    );
    Set { docs, roster, keep }
}
