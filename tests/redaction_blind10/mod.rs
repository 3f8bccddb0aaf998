//! The tenth blind PHI evaluation set: a seeded generator of documents in 30 families, each
//! with byte-exact labels of every identifier of a patient or their relatives. Written
//! without reading the redactor's rules or word lists, nor any other set's generator; its
//! pools (names, streets, id formats, date forms, label wordings) are its own. A holdout:
//! nobody tunes on it.
//!
//! Conventions: every phone/fax number and every day-precision date is labelled (a month
//! and year alone, a time or a weekday is not); ages only from 90 (the number alone); a room
//! or bed by its number; a street line as Address and the ZIP apart (city and state are
//! left); staff, the practice, payers, labs and vendors are in the keep list and unlabelled,
//! as are NPIs, CPT/HCPCS/ICD-10/NDC codes, lots, order and tracking numbers and dosages.

use crate::redaction_harness::{Doc, Label, Set};
use opsdesk::governance::redact::Kind::{self, *};

pub const FAMILIES: [&str; 30] = [
    "nursecall",
    "isolation",
    "exif",
    "mailroom",
    "pastoral",
    "ethics",
    "guardian",
    "ldcarer",
    "precert",
    "pbmappeal",
    "dpoa",
    "rehablog",
    "mar",
    "refugee",
    "van",
    "dentallab",
    "contacts",
    "orthotics",
    "deferral",
    "organdonor",
    "coroner",
    "cremation",
    "csvml",
    "jsonl",
    "mdfoot",
    "rstadoc",
    "efaxocr",
    "it_ca",
    "taglish",
    "ur_sw",
];

/// splitmix64: small, seeded, deterministic.
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
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
    fn pk(&mut self, xs: &[&'static str]) -> &'static str {
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
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }
    fn upper(&mut self, n: usize) -> String {
        const L: &[u8] = b"ABCDEFGHJKLMNPRSTUVWXYZ";
        (0..n).map(|_| char::from(*self.pick(L))).collect()
    }
}

/// Appends text and labelled pieces; the offsets come from the text itself.
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
}

// (given, family); an empty family is a one-word name.
const NAMES: &[(&str, &str)] = &[
    ("Aoife", "Ní Bhraonáin"),
    ("Ruairí", "Mac Giolla Phádraig"),
    ("Síle", "Nic an tSaoi"),
    ("Eilidh", "MacLeòid"),
    ("Catrìona", "NicDhòmhnaill"),
    ("Tadhg", "Ó Súilleabháin"),
    ("Dòmhnall", "MacAonghais"),
    ("Sigríður", "Þórsdóttir"),
    ("Gunnar", "Hallgrímsson"),
    ("Ásdís", "Kjartansdóttir"),
    ("Einar", "Baldursson"),
    ("Hrafnhildur", "Jónsdóttir"),
    ("María José", "Echeverría Lozano"),
    ("Joaquín", "Ibarra Sandoval"),
    ("Remedios", "Cifuentes Arrieta"),
    ("Inmaculada", "Zubizarreta Olano"),
    ("Teresa", "dos Anjos Ferraz"),
    ("Rui", "de Carvalho Pimentel"),
    ("Leonor", "dos Santos Brito"),
    ("Abu Khalid", ""),
    ("Umm Salim", ""),
    ("Hanan", "Barghouti"),
    ("Yusuf", "al-Tamimi"),
    ("Tsehay", "Gebremedhin"),
    ("Abebe", "Wolde-Giorgis"),
    ("Meseret", "Alemayehu"),
    ("Yonas", "Tesfaye"),
    ("Aung Kyaw Moe", ""),
    ("Thida", ""),
    ("Zaw Min Htut", ""),
    ("Murugesan", ""),
    ("Kalaiselvi", ""),
    ("Batbayar", "Dorjsuren"),
    ("Oyuntsetseg", "Ganbold"),
    ("Enkhjargal", "Tserendorj"),
    ("Wiremu", "Te Rangi"),
    ("Aroha", "Ngata"),
    ("Rawiri", "Tamihana"),
    ("Sefo", "Tuiasosopo"),
    ("Losaline", "Faleolo"),
    ("Tavita", "Leaupepe"),
    ("Gülşen", "Yıldırım"),
    ("Oğuz", "Karakaya"),
    ("Emine", "Çelikkol"),
    ("Shirin", "Ghasemzadeh"),
    ("Dariush", "Rahimpour"),
    ("Nasrin", "Tabatabaei"),
    ("Graziella", "Scognamiglio"),
    ("Pasquale", "Lo Russo"),
    ("Montserrat", "Puigdemunt"),
    ("Jordi", "Vilaró i Bosch"),
    ("Marites", "Dimaculangan"),
    ("Rodel", "Pangilinan"),
    ("Nur Aisyah", "binti Rahmat"),
    ("Faizal", "bin Osman"),
    ("Rukhsana", "Qureshi"),
    ("Tariq Mehmood", "Awan"),
    ("Neema", "Mwakalinga"),
    ("Baraka", "Kimaro"),
    ("Zawadi", "Mushi"),
    ("Prudence", "Attwater"),
    ("Clement", "Vosburgh"),
    ("Honor", "Blakemore"),
    ("Sterling", "Haverkamp"),
    ("Fionnuala", "Ó Dubhghaill"),
    ("Caoimhín", "Mac an Bhaird"),
    ("Þorsteinn", "Eiríksson"),
    ("Guðrún", "Ragnarsdóttir"),
    ("Encarnación", "Villalobos Urquiza"),
    ("Esteban", "Goicoechea Marín"),
    ("Conceição", "de Sousa Albuquerque"),
    ("Abu Hamza", ""),
    ("Umm Yasmin", ""),
    ("Alemnesh", "Haile-Mariam"),
    ("Dawit", "Bekele"),
    ("Nilar", ""),
    ("Khin Mya", ""),
    ("Selvaraj", ""),
    ("Tsetsegmaa", "Bayarsaikhan"),
    ("Ngaio", "Whaanga"),
    ("Tāne", "Horomona"),
    ("Faʻafetai", "Sapolu"),
    ("Şükrü", "Ağaoğlu"),
    ("Parvaneh", "Sohrabi"),
    ("Nunzia", "Esposito Amato"),
    ("Meritxell", "Cases i Roig"),
    ("Jhunriel", "Macaraeg"),
    ("Hafizah", "binti Ismail"),
    ("Shabnam", "Chaudhry"),
    ("Rehema", "Nyirenda"),
    ("Merry", "Goodspeed"),
    ("Patience", "Oakley"),
];

const STAFF: &[&str] = &[
    "Ingrid Solvang",
    "Patrice Oduya",
    "Desmond Whitlock",
    "Lucinda Farrow",
    "Marek Wojtala",
    "Anjali Deshmane",
    "Thaddeus Crane",
    "Beatriz Olmedo",
];
const PRACTICE: &[&str] = &[
    "Harrowgate Regional Medical Center",
    "Bluewater Mobile Health",
    "Cedar Crest Rehabilitation",
    "Northstar Benefit Plan",
    "ClearPath Rx",
    "Ivory Crown Dental Lab",
    "Lumen Optical",
    "Stride Orthotic & Prosthetic",
    "Tri-County Blood Services",
    "Lifegift Donor Registry",
    "Maple House",
    "Evergreen Memorial Crematory",
];

const STREETS: &[&str] = &[
    "Quarry Hollow Rd",
    "Tannery Lane",
    "Wickersham Ave",
    "Fennimore Ct",
    "Brackenridge Blvd",
    "Old Mill Pike",
    "Sparrowhawk Dr",
    "Kingfisher Row",
    "Ridgeback Terrace",
    "Calle Alondra",
    "Pemberton Close",
    "Larchmont Way",
    "Osprey Point Rd",
    "Cobblestone Sq",
];
const CITIES: &[&str] = &[
    "Marlowe, KS",
    "Fort Ellery, OR",
    "Wyndham Falls, VT",
    "Castroville, NM",
    "Bellmead, TX",
    "Ashgrove, MN",
    "Port Ainsley, ME",
];
const RELATIONS: &[&str] = &[
    "daughter", "son", "niece", "husband", "wife", "brother", "sister", "grandson",
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
const MESI: [&str; 12] = [
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
    "dicembre",
];
const MESOS: [&str; 12] = [
    "de gener",
    "de febrer",
    "de març",
    "d'abril",
    "de maig",
    "de juny",
    "de juliol",
    "d'agost",
    "de setembre",
    "d'octubre",
    "de novembre",
    "de desembre",
];
const BULAN: [&str; 12] = [
    "Januari",
    "Februari",
    "Mac",
    "April",
    "Mei",
    "Jun",
    "Julai",
    "Ogos",
    "September",
    "Oktober",
    "November",
    "Disember",
];
const MWEZI: [&str; 12] = [
    "Januari", "Februari", "Machi", "Aprili", "Mei", "Juni", "Julai", "Agosti", "Septemba",
    "Oktoba", "Novemba", "Desemba",
];

#[derive(Clone)]
struct Pat {
    given: String,
    family: String,
    dob: (usize, usize, usize),
    phone: String,
    email: String,
    street: String,
    city: String,
    zip: String,
    mrn: String,
    member: String,
    acct: String,
}

impl Pat {
    fn full(&self) -> String {
        if self.family.is_empty() {
            self.given.clone()
        } else {
            format!("{} {}", self.given, self.family)
        }
    }
    fn rev(&self) -> String {
        if self.family.is_empty() {
            self.given.clone()
        } else {
            format!("{}, {}", self.family, self.given)
        }
    }
    fn surname(&self) -> &str {
        if self.family.is_empty() {
            &self.given
        } else {
            &self.family
        }
    }
    fn caps(&self) -> String {
        self.full().to_uppercase()
    }
    /// One of the written forms of the name, picked at random.
    fn any(&self, r: &mut Rng) -> String {
        match r.below(5) {
            0 => self.rev(),
            1 => self.caps(),
            _ => self.full(),
        }
    }
}

fn ascii_slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        let m = match c {
            'á' | 'à' | 'â' | 'Á' => 'a',
            'é' | 'è' | 'É' => 'e',
            'í' | 'ì' | 'ı' | 'Í' => 'i',
            'ó' | 'ò' | 'ö' | 'Ó' => 'o',
            'ú' | 'ü' | 'Ú' => 'u',
            'ç' | 'Ç' => 'c',
            'ş' | 'Ş' => 's',
            'ğ' => 'g',
            'ð' => 'd',
            'þ' | 'Þ' => 't',
            c if c.is_ascii_alphanumeric() => c.to_ascii_lowercase(),
            _ => continue,
        };
        out.push(m);
    }
    out
}

fn phone(r: &mut Rng) -> String {
    let a = format!("{}{}", r.range(2, 9), r.digits(2));
    let b = format!("{}{}", r.range(2, 9), r.digits(2));
    let c = r.digits(4);
    match r.below(6) {
        0 => format!("({a}) {b}-{c}"),
        1 => format!("{a}.{b}.{c}"),
        2 => format!("+1 {a} {b} {c}"),
        3 => format!("{a}-{b}-{c} ext. {}", r.digits(3)),
        4 => format!("1-{a}-{b}-{c}"),
        _ => format!("{a}-{b}-{c}"),
    }
}

fn luhn_card(r: &mut Rng) -> String {
    let mut d: Vec<u32> = vec![4];
    for _ in 0..14 {
        d.push(r.below(10) as u32);
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
    let s: String = d
        .iter()
        .map(|x| char::from_digit(*x, 10).unwrap())
        .collect();
    format!("{} {} {} {}", &s[0..4], &s[4..8], &s[8..12], &s[12..16])
}

fn new_pat(r: &mut Rng) -> Pat {
    let (g, f) = *r.pick(NAMES);
    let slug = if f.is_empty() {
        ascii_slug(g)
    } else {
        format!("{}.{}", ascii_slug(g), ascii_slug(f))
    };
    let host = r.pk(&[
        "kestrelmail.com",
        "posteo.example",
        "yahoo.co.nz",
        "hotmail.it",
        "outlook.ie",
        "gmx.net",
    ]);
    let street = format!(
        "{} {}{}",
        r.range(3, 9870),
        r.pk(STREETS),
        if r.chance(25) {
            format!(" Apt {}{}", r.range(1, 12), r.upper(1))
        } else {
            String::new()
        }
    );
    let zip = if r.chance(25) {
        format!("{}-{}", r.digits(5), r.digits(4))
    } else {
        format!("{}{}", r.range(1, 9), r.digits(4))
    };
    let mrn = match r.below(3) {
        0 => format!("HRM-{}", r.digits(7)),
        1 => format!("{}{}", r.upper(1), r.digits(8)),
        _ => format!("{}-{}-{}", r.digits(2), r.digits(3), r.digits(3)),
    };
    let member = match r.below(2) {
        0 => format!("NSB{}", r.digits(10)),
        _ => format!("XQ{}-{}-{}", r.upper(1), r.digits(3), r.digits(4)),
    };
    Pat {
        given: g.to_string(),
        family: f.to_string(),
        dob: (r.range(1926, 1999), r.range(1, 12), r.range(1, 28)),
        phone: phone(r),
        email: format!("{slug}{}@{host}", r.digits(2)),
        street,
        city: r.pk(CITIES).to_string(),
        zip,
        mrn,
        member,
        acct: format!("{}-{}", r.digits(6), r.digits(2)),
    }
}

/// A day-precision date in one of the English/numeric forms.
fn date(r: &mut Rng, (y, m, d): (usize, usize, usize)) -> String {
    let mon = MONTHS[m - 1];
    match r.below(8) {
        0 => format!("{m:02}/{d:02}/{y}"),
        1 => format!("{d} {mon} {y}"),
        2 => format!("{mon} {d}, {y}"),
        3 => format!("{y}-{m:02}-{d:02}"),
        4 => format!("{d:02}.{m:02}.{y}"),
        5 => format!("{d:02}-{}-{y}", &mon[..3]),
        6 => format!("{m}/{d}/{:02}", y % 100),
        _ => format!("{}. {d}, {y}", &mon[..3]),
    }
}

fn recent(r: &mut Rng) -> (usize, usize, usize) {
    (r.range(2025, 2026), r.range(1, 12), r.range(1, 28))
}

/// A recent day-precision date in one of the forms of [`date`].
fn rdate(r: &mut Rng) -> String {
    let d = recent(r);
    date(r, d)
}

fn relative(r: &mut Rng) -> Pat {
    new_pat(r)
}

fn staff(r: &mut Rng) -> &'static str {
    r.pk(STAFF)
}

fn room(r: &mut Rng) -> String {
    match r.below(3) {
        0 => format!("{}{:02}", r.range(2, 9), r.range(1, 40)),
        1 => format!(
            "{}{}-{}",
            r.range(2, 7),
            r.pk(&["W", "E", "N"]),
            r.range(1, 30)
        ),
        _ => format!("{}-{}", r.range(100, 899), r.pk(&["A", "B"])),
    }
}

fn age90(r: &mut Rng) -> String {
    r.range(90, 104).to_string()
}

fn lookalike(r: &mut Rng) -> String {
    match r.below(7) {
        0 => format!("NPI 1{}", r.digits(9)),
        1 => format!("CPT {}", r.range(90000, 99499)),
        2 => format!(
            "ICD-10 {}{}.{}",
            r.pk(&["Z", "M", "L", "E"]),
            r.digits(2),
            r.digits(2)
        ),
        3 => format!("NDC {}-{}-{}", r.digits(5), r.digits(4), r.digits(2)),
        4 => format!("lot {}{}", r.upper(2), r.digits(5)),
        5 => format!("PO-{}", r.digits(6)),
        _ => format!(
            "{} mg at {}:{}0",
            r.range(1, 500),
            r.range(7, 20),
            r.range(0, 5)
        ),
    }
}

fn addr(b: &mut B, p: &Pat) {
    b.l(Address, &p.street)
        .t(", ")
        .t(&p.city)
        .t(" ")
        .l(Zip, &p.zip);
}

fn nursecall(r: &mut Rng, b: &mut B, p: &Pat) {
    let d = recent(r);
    let ds = format!("{}-{:02}-{:02}", d.0, d.1, d.2);
    b.t("NCS-700 EVENT EXPORT  unit 6N\n");
    for i in 0..r.range(2, 4) {
        let q = if i == 0 { p.clone() } else { new_pat(r) };
        b.l(Date, &ds)
            .t(&format!(
                " {:02}:{:02}:{:02}  ",
                r.range(0, 23),
                r.below(60),
                r.below(60)
            ))
            .t(r.pk(&["CALL", "BATH", "CODE", "BED-EXIT"]))
            .t("  Rm ")
            .l(Room, &room(r))
            .t("  PT: ")
            .l(Person, &q.caps())
            .t(&format!(
                "  PRI={}  ANS: {} +{}s\n",
                r.pk(&["NORM", "HIGH"]),
                staff(r),
                r.range(20, 400)
            ));
    }
    b.t("Family notified of bed-exit: ")
        .l(Phone, &p.phone)
        .t(" (")
        .t(r.pk(RELATIONS))
        .t(")\n");
}

fn isolation(r: &mut Rng, b: &mut B, _p: &Pat) {
    b.t(&format!(
        "ISOLATION LIST — {} West — printed 06:00\n",
        r.range(3, 8)
    ))
    .t("Bed | Patient | MRN | DOB | Organism | Precautions\n");
    for _ in 0..r.range(3, 5) {
        let q = new_pat(r);
        b.l(Room, &room(r))
            .t(" | ")
            .l(Person, &q.rev())
            .t(" | ")
            .l(Mrn, &q.mrn)
            .t(" | ");
        let ds = date(r, q.dob);
        b.l(Date, &ds)
            .t(" | ")
            .t(r.pk(&[
                "MRSA (nares)",
                "C. diff",
                "VRE",
                "CRE",
                "Influenza A",
                "RSV",
            ]))
            .t(" | ")
            .t(r.pk(&["Contact", "Contact+", "Droplet", "Airborne"]))
            .t("\n");
    }
    b.t(&format!("Reviewed by IP: {}\n", staff(r)));
}

fn exif(r: &mut Rng, b: &mut B, p: &Pat) {
    let d = recent(r);
    b.t(&format!("File Name                       : IMG_{}.JPG\n", r.digits(4)))
        .t("Make                            : Canon\nCamera Model Name               : PowerShot G7 X\n")
        .t("Date/Time Original              : ")
        .l(Date, &format!("{}:{:02}:{:02}", d.0, d.1, d.2))
        .t(&format!(" {:02}:{:02}:{:02}\n", r.range(7, 19), r.below(60), r.below(60)))
        .t("Body Serial Number              : ")
        .l(Device, &format!("{}{}", r.digits(2), r.digits(10)))
        .t("\nImage Description               : ")
        .t(r.pk(&["sacral PI stage 3 ", "L heel wound ", "abd incision "]))
        .l(Person, &p.full())
        .t(" MRN ")
        .l(Mrn, &p.mrn)
        .t(&format!("\nArtist                          : {}\n", staff(r)))
        .t("Lens Info                       : 8.8-36.8mm f/1.8-2.8\n")
        .t("User Comment                    : pt DOB ");
    let ds = date(r, p.dob);
    b.l(Date, &ds).t("; consent on file\n");
}

fn mailroom(r: &mut Rng, b: &mut B, _p: &Pat) {
    b.t("MAIL ROOM — INBOUND PACKAGE LOG\n");
    for _ in 0..r.range(2, 4) {
        let q = new_pat(r);
        let rel = relative(r);
        let d = recent(r);
        b.t("rcvd ")
            .l(Date, &format!("{}/{}/{}", d.1, d.2, d.0))
            .t(&if r.chance(50) {
                format!(" | UPS 1Z{}{} | To: ", r.upper(3), r.digits(13))
            } else {
                format!(" | FedEx {} | To: ", r.digits(12))
            })
            .l(Person, &q.full())
            .t(", Rm ")
            .l(Room, &room(r))
            .t(" | From: ")
            .l(Person, &rel.full())
            .t(", ");
        addr(b, &rel);
        b.t(&format!(" | logged {}\n", staff(r)));
    }
}

fn pastoral(r: &mut Rng, b: &mut B, p: &Pat) {
    let rel = relative(r);
    b.t("PASTORAL CARE — VISIT REQUEST\nPatient: ")
        .l(Person, &p.full())
        .t("   Room: ")
        .l(Room, &room(r))
        .t(&format!(
            "\nTradition: {}\n",
            r.pk(&[
                "Ethiopian Orthodox Tewahedo",
                "Presbyterian",
                "Sunni Muslim",
                "Baháʼí",
                "Catholic"
            ])
        ));
    if r.chance(60) {
        b.t("Age: ").l(Age, &age90(r)).t("\n");
    } else {
        b.t(&format!("Age: {}\n", r.range(40, 89)));
    }
    b.t("Requested by: ")
        .t(r.pk(RELATIONS))
        .t(" ")
        .l(Person, &rel.full())
        .t(", tel ")
        .l(Phone, &rel.phone)
        .t(&format!(
            "\nBest time: after {} pm {}. Chaplain assigned: {}\n",
            r.range(1, 5),
            r.pk(&["Thursday", "tomorrow", "Sunday"]),
            staff(r)
        ));
}

fn ethics(r: &mut Rng, b: &mut B, p: &Pat) {
    let rel = relative(r);
    let d = recent(r);
    b.t("ETHICS CONSULT NOTE\nRequested ")
        .l(Date, &date(r, d))
        .t(&format!(" by Dr. {} (hospitalist)\n", staff(r)))
        .t("Patient: ")
        .l(Person, &p.full())
        .t(", a ")
        .l(Age, &age90(r))
        .t("-year-old, MRN ")
        .l(Mrn, &p.mrn)
        .t("\nQuestion: goals of care; surrogate disagreement.\nSurrogate: ")
        .t(r.pk(RELATIONS))
        .t(", ")
        .l(Person, &rel.full())
        .t(" (")
        .l(Phone, &rel.phone)
        .t(").\nThe committee met with Mr./Ms. ")
        .l(Person, rel.surname())
        .t(&format!(" for 45 minutes. {}.\n", lookalike(r)));
}

fn guardian(r: &mut Rng, b: &mut B, p: &Pat) {
    let g = relative(r);
    b.t("PROBATE COURT, COUNTY OF ASHGROVE\nIn re the Guardianship of ")
        .l(Person, &p.caps())
        .t(", an Adult\nRespondent's date of birth: ")
        .l(Date, &date(r, p.dob))
        .t("\nRespondent resides at ");
    addr(b, p);
    b.t("\n\nDear Dr. ")
        .t(staff(r).split(' ').nth(1).unwrap_or("Crane"))
        .t(",\nThe court requests a physician's report on the capacity of the respondent before the hearing set for ")
        .l(Date, &rdate(r))
        .t(".\nProposed guardian: ")
        .l(Person, &g.full())
        .t(", ")
        .l(Email, &g.email)
        .t("\nClerk of Court\n");
}

fn ldcarer(r: &mut Rng, b: &mut B, p: &Pat) {
    let me = relative(r);
    let intl = format!("+61 4{} {} {}", r.digits(2), r.digits(3), r.digits(3));
    b.t("From: ")
        .l(Person, &me.full())
        .t(" <")
        .l(Email, &me.email)
        .t(">\nTo: care.team@harrowgate.example\nSubject: Mum - ")
        .l(Person, &p.full())
        .t(" - any update?\n\nHello,\nI live in Perth so I can only ring. Mum (DOB ")
        .l(Date, &date(r, p.dob))
        .t(", hospital number ")
        .l(Mrn, &p.mrn)
        .t(") was moved last week. My mobile is ")
        .l(Phone, &intl)
        .t(" - best after 6 pm your time. The portal link I was given is ")
        .l(
            Url,
            &format!(
                "https://portal.harrowgate.example/proxy/{}?pt={}",
                r.digits(6),
                ascii_slug(&p.given)
            ),
        )
        .t("\nThank you,\n")
        .l(Person, &me.given)
        .t("\n");
}

fn precert(r: &mut Rng, b: &mut B, p: &Pat) {
    b.t("PRE-CERT CALL SCRIPT (Northstar Benefit Plan)\nREP: Thank you for calling, may I have the member ID?\nCALLER: It's ")
        .l(HealthPlan, &p.member)
        .t(".\nREP: Member name and date of birth?\nCALLER: ")
        .l(Person, &p.full())
        .t(", born ")
        .l(Date, &date(r, p.dob))
        .t(&format!(
            ".\nREP: Service requested?\nCALLER: {} and {}, {} NPI 1{}.\n",
            r.pk(&["CPT 27447", "CPT 63030", "CPT 97161"]),
            r.pk(&["ICD-10 M17.11", "ICD-10 M48.061"]),
            r.pk(&["Dr. Thaddeus Crane", "Dr. Beatriz Olmedo"]),
            r.digits(9)
        ))
        .t("REP: Callback number for the determination?\nCALLER: ")
        .l(Phone, &phone(r))
        .t(&format!(".\nREP: Your reference is PCR-{}. Determination within 72 hours.\n", r.digits(8)));
}

fn pbmappeal(r: &mut Rng, b: &mut B, p: &Pat) {
    let d = recent(r);
    b.t("ClearPath Rx — Appeals Unit\nPO Box 4410, Scottsdale AZ\nFax ")
        .l(Fax, &phone(r))
        .t("\n\nRE: First-level appeal\nMember: ")
        .l(Person, &p.rev())
        .t("\nMember ID: ")
        .l(HealthPlan, &p.member)
        .t(&format!(
            "\nRxBIN 610{} PCN CPRX{}\nDate of birth: ",
            r.digits(3),
            r.digits(2)
        ))
        .l(Date, &date(r, p.dob))
        .t(&format!(
            "\nDrug denied: {} ({}), denial dated ",
            r.pk(&["dupilumab 300 mg", "semaglutide 1 mg", "apixaban 5 mg"]),
            lookalike(r)
        ))
        .l(Date, &date(r, d))
        .t("\nCopay card on file: ")
        .l(Card, &luhn_card(r))
        .t("\nPlease reply to the member at ");
    addr(b, p);
    b.t(".\n");
}

fn dpoa(r: &mut Rng, b: &mut B, p: &Pat) {
    let a = relative(r);
    let when = (r.range(2010, 2024), r.range(1, 12), r.range(1, 28));
    let signed = date(r, when);
    b.t("DPOA ACTIVATION NOTE\nPrincipal: ")
        .l(Person, &p.full())
        .t(" (DOB ")
        .l(Date, &date(r, p.dob))
        .t(")\nTwo physicians (Dr. ")
        .t(staff(r))
        .t(", Dr. ")
        .t(staff(r))
        .t(") certify incapacity for health decisions as of ")
        .l(Date, &rdate(r))
        .t(".\nAgent named in the instrument dated ")
        .l(Date, &signed)
        .t(": ")
        .l(Person, &a.full())
        .t(", ");
    addr(b, &a);
    b.t(", phone ").l(Phone, &a.phone).t(".\n");
}

fn rehablog(r: &mut Rng, b: &mut B, p: &Pat) {
    let rel = relative(r);
    let d = recent(r);
    b.t(&format!(
        "Cedar Crest Rehabilitation — Daily Log — Day {}\n",
        r.range(2, 40)
    ))
    .l(Date, &date(r, d))
    .t("\nResident: ")
    .l(Person, &p.full())
    .t(", room ")
    .l(Room, &room(r))
    .t(&format!(
        "\n07:30 UA collected, observed. 10:00 group ({}). 13:00 IOP with {}.\n",
        r.pk(&["relapse prevention", "DBT skills", "family systems"]),
        staff(r)
    ))
    .t("14:10 visitor: ")
    .t(r.pk(RELATIONS))
    .t(" ")
    .l(Person, &rel.full())
    .t(", vehicle plate ")
    .l(
        Vehicle,
        &format!("{}{}{}", r.digits(1), r.upper(3), r.digits(3)),
    )
    .t(", signed out 15:25.\n");
}

fn mar(r: &mut Rng, b: &mut B, p: &Pat) {
    b.t(&format!(
        "MEDICATION ADMINISTRATION RECORD — Maple House — {} {}\nResident: ",
        MONTHS[r.below(12)],
        r.range(2025, 2026)
    ))
    .l(Person, &p.rev())
    .t("   DOB: ")
    .l(Date, &date(r, p.dob))
    .t("   Medicaid #: ")
    .l(HealthPlan, &format!("{}{}", r.digits(8), r.upper(2)))
    .t("\nAllergies: penicillin\nMedication            | Time | 1  | 2  | 3  | 4  | 5\n");
    for _ in 0..3 {
        b.t(&format!(
            "{:<21} | {} | PO | PO | R  | PO | PO\n",
            r.pk(&[
                "sertraline 50 mg",
                "risperidone 1 mg",
                "levetiracetam 500 mg",
                "docusate 100 mg"
            ]),
            r.pk(&["0800", "1200", "2000"])
        ));
    }
    b.t(&format!(
        "Initials: PO = {}; R = refused, guardian ",
        staff(r)
    ))
    .l(Person, &relative(r).full())
    .t(" called at ")
    .l(Phone, &phone(r))
    .t("\n");
}

fn refugee(r: &mut Rng, b: &mut B, p: &Pat) {
    b.t("REFUGEE HEALTH ASSESSMENT — DOMESTIC SCREENING\nName: ")
        .l(Person, &p.caps())
        .t("\nA-Number: ")
        .l(
            Account,
            &format!("A{}-{}-{}", r.digits(3), r.digits(3), r.digits(3)),
        )
        .t("\nDate of birth: ")
        .l(Date, &date(r, p.dob))
        .t("   Arrival in US: ")
        .l(Date, &rdate(r))
        .t(&format!(
            "\nLanguage: {}   Interpreter: telephonic\nSSN (if issued): ",
            r.pk(&["Tigrinya", "Amharic", "Dari", "Burmese", "Swahili", "Tamil"])
        ))
        .l(
            Ssn,
            &format!(
                "{}-{}-{}",
                r.range(100, 665),
                r.digits(2),
                r.range(1000, 9999)
            ),
        )
        .t("\nAddress: ");
    addr(b, p);
    b.t("\nContact: ").l(Phone, &p.phone).t(&format!(
        "\nQuantiFERON: negative. Case worker: {}\n",
        staff(r)
    ));
}

fn van(r: &mut Rng, b: &mut B, _p: &Pat) {
    b.t(&format!(
        "Bluewater Mobile Health — van log — stop {} ({})\n",
        r.range(1, 6),
        r.pk(&[
            "flea market lot",
            "St. Brendan's parish hall",
            "truck stop on Rte 9"
        ])
    ));
    for i in 1..=r.range(2, 4) {
        let q = new_pat(r);
        let shown = q.any(r);
        b.t(&format!("#{i} "))
            .l(Person, &shown)
            .t(", DOB ")
            .l(Date, &date(r, q.dob))
            .t(&format!(
                ", BP {}/{}, ",
                r.range(100, 170),
                r.range(60, 100)
            ))
            .t("cell ")
            .l(Phone, &q.phone)
            .t(&format!(
                ", {}\n",
                r.pk(&["flu shot given", "A1c 7.9", "referred to clinic"])
            ));
    }
}

fn dentallab(r: &mut Rng, b: &mut B, p: &Pat) {
    b.t("DENTAL LABORATORY WORK ORDER — Ivory Crown Dental Lab\n")
        .t(&format!(
            "Case # {}   Doctor: Dr. {}\nPatient: ",
            r.digits(6),
            staff(r)
        ))
        .l(Person, &p.full())
        .t("   Chart: ")
        .l(Mrn, &p.mrn)
        .t(&format!(
            "\nRestoration: {} #{}  Shade {}\nReturn by: ",
            r.pk(&["PFM crown", "zirconia crown", "e.max veneer"]),
            r.range(2, 31),
            r.pk(&["A2", "B1", "A3.5"])
        ))
        .l(Date, &rdate(r))
        .t(" (try-in 2:30 pm)\nBilling acct: ")
        .l(Account, &p.acct)
        .t("\nCall the patient if delayed: ")
        .l(Phone, &p.phone)
        .t("\n");
}

fn contacts(r: &mut Rng, b: &mut B, p: &Pat) {
    b.t("Lumen Optical — CONTACT LENS ORDER\nPatient: ")
        .l(Person, &p.full())
        .t("   DOB: ")
        .l(Date, &date(r, p.dob))
        .t(&format!(
            "\nOD: -{}.{}5 BC 8.6 DIA 14.2  OS: -{}.{}0 BC 8.6 DIA 14.2  Qty 4 boxes\nShip to: ",
            r.range(1, 6),
            r.pk(&["2", "7"]),
            r.range(1, 6),
            r.pk(&["0", "5"])
        ));
    addr(b, p);
    b.t("\nEmail: ")
        .l(Email, &p.email)
        .t("\nPaid: ")
        .l(Card, &luhn_card(r))
        .t(&format!(
            "  exp {:02}/{}\n",
            r.range(1, 12),
            r.range(27, 31)
        ));
}

fn orthotics(r: &mut Rng, b: &mut B, p: &Pat) {
    b.t("Stride Orthotic & Prosthetic — FITTING NOTE\n")
        .l(Person, &p.full())
        .t(", MRN ")
        .l(Mrn, &p.mrn)
        .t(&format!(
            "\nDevice: {} (HCPCS {}), socket serial ",
            r.pk(&["transtibial prosthesis", "KAFO", "custom AFO"]),
            r.pk(&["L5301", "L2036", "L1960"])
        ))
        .l(
            Device,
            &format!("SP-{}-{}{}", r.digits(4), r.upper(1), r.digits(3)),
        )
        .t(&format!(
            "\nGait: {} with {}. Next fitting ",
            r.pk(&["mild vaulting", "good symmetry"]),
            staff(r)
        ))
        .l(Date, &rdate(r))
        .t(".\n");
}

fn deferral(r: &mut Rng, b: &mut B, p: &Pat) {
    b.t("Tri-County Blood Services\n\n")
        .l(Person, &p.full())
        .t("\n");
    addr(b, p);
    b.t("\n\nDear ")
        .l(Person, &p.given)
        .t(",\nThank you for coming to donate on ")
        .l(Date, &rdate(r))
        .t(". Donor ID ")
        .l(Account, &format!("TCB{}", r.digits(7)))
        .t(&format!(
            ". Because of {}, you are deferred until ",
            r.pk(&[
                "a low hemoglobin (11.9 g/dL)",
                "recent travel",
                "a new tattoo"
            ])
        ))
        .l(Date, &rdate(r))
        .t(".\nQuestions? Call our donor nurse at ")
        .l(Phone, &phone(r))
        .t(".\n");
}

fn organdonor(r: &mut Rng, b: &mut B, p: &Pat) {
    b.t("Lifegift Donor Registry — Registration Confirmation\n")
        .l(Person, &p.caps())
        .t("\n");
    addr(b, p);
    b.t("\nYou joined the registry on ")
        .l(Date, &rdate(r))
        .t(" through the DMV.\nDriver's license: ")
        .l(
            License,
            &format!(
                "{}{}-{}-{}",
                r.upper(1),
                r.digits(3),
                r.digits(4),
                r.digits(4)
            ),
        )
        .t("\nDate of birth: ")
        .l(Date, &date(r, p.dob))
        .t("\nUpdate your decision at ")
        .l(
            Url,
            &format!("https://lifegift.example/registry/donor?id={}", r.digits(9)),
        )
        .t("\n");
}

fn coroner(r: &mut Rng, b: &mut B, p: &Pat) {
    let nok = relative(r);
    b.t("MEDICAL EXAMINER — INTAKE\nDecedent: ")
        .l(Person, &p.rev())
        .t("   Age: ")
        .l(Age, &age90(r))
        .t("\nDate of death: ")
        .l(Date, &rdate(r))
        .t("   Found at: ");
    addr(b, p);
    b.t("\nNext of kin: ")
        .l(Person, &nok.full())
        .t(" (")
        .t(r.pk(RELATIONS))
        .t("), ")
        .l(Phone, &nok.phone)
        .t("\nDecedent's vehicle at scene: plate ")
        .l(
            Vehicle,
            &format!("{}{}-{}", r.upper(3), r.digits(1), r.digits(3)),
        )
        .t(&format!("\nInvestigator: {}\n", staff(r)));
}

fn cremation(r: &mut Rng, b: &mut B, p: &Pat) {
    let a = relative(r);
    let rel = r.pk(RELATIONS);
    b.t("Evergreen Memorial Crematory — CREMATION AUTHORIZATION\nI, ")
        .l(Person, &a.full())
        .t(&format!(", the {rel} of the decedent, "))
        .l(Person, &p.full())
        .t(", born ")
        .l(Date, &date(r, p.dob))
        .t(", died ")
        .l(Date, &rdate(r))
        .t(", SSN ")
        .l(
            Ssn,
            &format!(
                "{}-{}-{}",
                r.range(100, 665),
                r.digits(2),
                r.range(1000, 9999)
            ),
        )
        .t(", authorize cremation.\nAuthorizing agent's address: ");
    addr(b, &a);
    b.t("\nTelephone: ")
        .l(Phone, &a.phone)
        .t(&format!("\nWitness: {}\n", staff(r)));
}

fn csvml(r: &mut Rng, b: &mut B, _p: &Pat) {
    b.t("\"patient\",\"dob\",\"mrn\",\"notes\"\r\n");
    for _ in 0..r.range(2, 3) {
        let q = new_pat(r);
        let rel = relative(r);
        b.t("\"")
            .l(Person, &q.full())
            .t("\",\"")
            .l(Date, &date(r, q.dob))
            .t("\",\"")
            .l(Mrn, &q.mrn)
            .t("\",\"Called ")
            .l(Person, &rel.given)
            .t(" (")
            .t(r.pk(RELATIONS))
            .t(")\r\nat ")
            .l(Phone, &rel.phone)
            .t(&format!("; said \"\"ok\"\"\r\n{}\"\r\n", lookalike(r)));
    }
}

fn jsonl(r: &mut Rng, b: &mut B, p: &Pat) {
    for _ in 0..r.range(2, 3) {
        let d = recent(r);
        b.t("{\"ts\":\"")
            .l(Date, &format!("{}-{:02}-{:02}", d.0, d.1, d.2))
            .t(&format!(
                "T{:02}:{:02}:{:02}Z\",\"event\":\"",
                r.below(24),
                r.below(60),
                r.below(60)
            ))
            .t(r.pk(&["symptom_log", "med_taken", "login", "bp_reading"]))
            .t("\",\"user\":\"")
            .l(Email, &p.email)
            .t("\",\"patient\":{\"name\":\"")
            .l(Person, &p.full())
            .t("\",\"dob\":\"")
            .l(Date, &format!("{}-{:02}-{:02}", p.dob.0, p.dob.1, p.dob.2))
            .t("\"},\"client_ip\":\"")
            .l(
                Ip,
                &format!(
                    "{}.{}.{}.{}",
                    r.range(23, 212),
                    r.below(256),
                    r.below(256),
                    r.range(1, 254)
                ),
            )
            .t(&format!(
                "\",\"app\":\"4.{}.{}\",\"sys\":{}}}\n",
                r.below(10),
                r.below(20),
                r.range(100, 160)
            ));
    }
}

fn mdfoot(r: &mut Rng, b: &mut B, p: &Pat) {
    let rel = relative(r);
    b.t("## Home visit\n\nSaw **")
        .l(Person, &p.full())
        .t("** at home[^1]; lives with ")
        .t(r.pk(RELATIONS))
        .t(" ")
        .l(Person, &rel.full())
        .t("[^2]. Weight 61 kg, gait steady.\n\n[^1]: ")
        .l(Address, &p.street)
        .t(", ")
        .t(&p.city)
        .t(" — gate code in chart ")
        .l(Mrn, &p.mrn)
        .t(".\n[^2]: reachable at ")
        .l(Phone, &rel.phone)
        .t(", visit confirmed for ")
        .l(Date, &rdate(r))
        .t(".\n");
}

fn rstadoc(r: &mut Rng, b: &mut B, p: &Pat) {
    if r.chance(50) {
        b.t("Visit note\n==========\n\n:Patient: ")
            .l(Person, &p.full())
            .t("\n:DOB: ")
            .l(Date, &date(r, p.dob))
            .t("\n:MRN: ")
            .l(Mrn, &p.mrn)
            .t(&format!(
                "\n:Author: {}\n\n.. note:: Call back at ",
                staff(r)
            ))
            .l(Phone, &p.phone)
            .t(" before the next infusion.\n");
    } else {
        b.t("= Discharge checklist\n:patient: ")
            .l(Person, &p.full())
            .t("\n:member-id: ")
            .l(HealthPlan, &p.member)
            .t("\n:revdate: ")
            .l(Date, &rdate(r))
            .t("\n\nNOTE: Ride home with ")
            .l(Person, &relative(r).full())
            .t(", email ")
            .l(Email, &p.email)
            .t(".\n");
    }
}

/// Digits as a fax OCR misreads them: some 0 as O, some 1 as l.
fn ocr(r: &mut Rng, s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '0' if r.chance(50) => 'O',
            '1' if r.chance(50) => 'l',
            c => c,
        })
        .collect()
}

fn efaxocr(r: &mut Rng, b: &mut B, p: &Pat) {
    let dob = format!("{:02}/{:02}/{}", p.dob.1, p.dob.2, p.dob.0);
    let fax = format!(
        "({}) {}-{}",
        r.range(201, 919),
        r.range(201, 989),
        r.digits(4)
    );
    let fax = ocr(r, &fax);
    let sent = format!(
        "{:02}/{:02}/{}",
        r.range(1, 12),
        r.range(1, 28),
        r.range(2025, 2026)
    );
    let sent = ocr(r, &sent);
    let tel = format!(
        "({}) {}-{}",
        r.range(201, 919),
        r.range(201, 989),
        r.digits(4)
    );
    let tel = ocr(r, &tel);
    let dob = ocr(r, &dob);
    let mrn = ocr(r, &p.mrn);
    b.t("eFax  Pg 1/3  ")
        .l(Date, &sent)
        .t("\nFR0M: Harrowgate Regional Medical Center  FAX ")
        .l(Fax, &fax)
        .t("\nPATlENT NAME: ")
        .l(Person, &p.caps())
        .t("\nD0B: ")
        .l(Date, &dob)
        .t("   MRN: ")
        .l(Mrn, &mrn)
        .t("\nPH0NE: ")
        .l(Phone, &tel)
        .t(&format!(
            "\nDX: {}  0rdering: Dr. {}\n",
            r.pk(&["I50.32", "N18.4", "C34.90"]),
            staff(r)
        ));
}

fn it_ca(r: &mut Rng, b: &mut B, p: &Pat) {
    let (y, m, d) = p.dob;
    if r.chance(50) {
        b.t("Buongiorno, sono ")
            .l(Person, &p.full())
            .t(", nata il ")
            .l(Date, &format!("{d} {} {y}", MESI[m - 1]))
            .t(". Vorrei spostare la visita del ")
            .l(Date, &{
                let q = recent(r);
                format!("{}/{}/{}", q.2, q.1, q.0)
            })
            .t(". Mio marito ")
            .l(Person, &relative(r).full())
            .t(" può accompagnarmi. Il mio cellulare è ")
            .l(
                Phone,
                &format!("+39 3{} {} {}", r.digits(2), r.digits(3), r.digits(4)),
            )
            .t(". Grazie!\n");
    } else {
        b.t("Bon dia, em dic ")
            .l(Person, &p.full())
            .t(" i vaig néixer el ")
            .l(Date, &format!("{d} {} de {y}", MESOS[m - 1]))
            .t(". Visc al ")
            .l(
                Address,
                &format!(
                    "carrer de {} {}",
                    r.pk(&["Provença", "Sant Joan", "la Riera"]),
                    r.range(2, 300)
                ),
            )
            .t(". El meu número de targeta sanitària és ")
            .l(
                HealthPlan,
                &format!("{}{}{}", r.upper(4), r.digits(9), r.digits(1)),
            )
            .t(" i el telèfon ")
            .l(
                Phone,
                &format!("+34 6{} {} {}", r.digits(2), r.digits(3), r.digits(3)),
            )
            .t(".\n");
    }
}

fn taglish(r: &mut Rng, b: &mut B, p: &Pat) {
    let (y, m, d) = p.dob;
    if r.chance(50) {
        b.t("Hi po, si ")
            .l(Person, &p.full())
            .t(" po ito, birthday ko ")
            .l(Date, &format!("{} {d}, {y}", MONTHS[m - 1]))
            .t(". Pwede po ba i-resched yung appointment ko? Hindi ako makakapunta kasi may work. Text niyo na lang po ako sa ")
            .l(Phone, &format!("0917 {} {}", r.digits(3), r.digits(4)))
            .t(" or email ")
            .l(Email, &p.email)
            .t(". Salamat po!\n");
    } else {
        b.t("Assalamualaikum doktor, saya ")
            .l(Person, &p.full())
            .t(", lahir ")
            .l(Date, &format!("{d} {} {y}", BULAN[m - 1]))
            .t(". No. IC saya ")
            .l(
                Account,
                &format!(
                    "{:02}{:02}{:02}-{}-{}",
                    y % 100,
                    m,
                    d,
                    r.digits(2),
                    r.digits(4)
                ),
            )
            .t(". Boleh tukar temujanji ke minggu depan? Anak saya ")
            .l(Person, &relative(r).given)
            .t(" boleh hantar. Tel ")
            .l(
                Phone,
                &format!("+60 1{}-{} {}", r.digits(1), r.digits(3), r.digits(4)),
            )
            .t(". Terima kasih.\n");
    }
}

fn ur_sw(r: &mut Rng, b: &mut B, p: &Pat) {
    let (y, m, d) = p.dob;
    if r.chance(50) {
        b.t("Assalam o alaikum, mera naam ")
            .l(Person, &p.full())
            .t(" hai. Meri tareekh-e-paidaish ")
            .l(Date, &format!("{d:02}-{m:02}-{y}"))
            .t(" hai. Meri walida ")
            .l(Person, &relative(r).full())
            .t(" ki umar ")
            .l(Age, &age90(r))
            .t(" saal hai aur unhein kal se bukhar hai. Mera number ")
            .l(Phone, &format!("0300-{}", r.digits(7)))
            .t(" hai. Shukriya.\n");
    } else {
        b.t("Habari daktari, mimi ni ")
            .l(Person, &p.full())
            .t(", nilizaliwa tarehe ")
            .l(Date, &format!("{d} {} {y}", MWEZI[m - 1]))
            .t(". Bibi yangu ")
            .l(Person, &relative(r).full())
            .t(" ana miaka ")
            .l(Age, &age90(r))
            .t(" na anahitaji dawa. Ninaishi ")
            .l(Address, &p.street)
            .t(". Nipigie ")
            .l(
                Phone,
                &format!("+255 7{} {} {}", r.digits(2), r.digits(3), r.digits(3)),
            )
            .t(". Asante sana.\n");
    }
}

type Family = fn(&mut Rng, &mut B, &Pat);

const MAKERS: [Family; 30] = [
    nursecall, isolation, exif, mailroom, pastoral, ethics, guardian, ldcarer, precert, pbmappeal,
    dpoa, rehablog, mar, refugee, van, dentallab, contacts, orthotics, deferral, organdonor,
    coroner, cremation, csvml, jsonl, mdfoot, rstadoc, efaxocr, it_ca, taglish, ur_sw,
];

pub fn generate(seed: u64, n: usize) -> Set {
    let mut r = Rng(seed);
    let mut docs = Vec::with_capacity(n);
    for i in 0..n {
        let fam = i % FAMILIES.len();
        let p = new_pat(&mut r);
        let mut b = B::default();
        MAKERS[fam](&mut r, &mut b, &p);
        docs.push(Doc {
            family: FAMILIES[fam],
            text: b.text,
            labels: b.labels,
        });
    }
    // A third of the patients (every third name of the pool) are on the roster, whichever
    // documents they turn up in.
    let roster = NAMES
        .iter()
        .step_by(3)
        .map(|(g, f)| {
            if f.is_empty() {
                g.to_string()
            } else {
                format!("{g} {f}")
            }
        })
        .collect();
    let keep = STAFF
        .iter()
        .chain(PRACTICE)
        .map(|s| s.to_string())
        .collect();
    Set { docs, roster, keep }
}
