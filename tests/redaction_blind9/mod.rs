//! The ninth blind set's generator: seeded, deterministic documents of 26 families new to the
//! blind sets, each with byte-exact labels of every identifier of a patient or their
//! household. Written without reading the redactor's rules or the other sets' generators;
//! pools are its own. Lookalikes (NPI, CPT, ICD-10, NDC, lot and order numbers, times,
//! weekdays, ages under 90, month/year dates, staff and the practice) stay unlabelled.

use opsdesk::governance::redact::Kind;

use crate::redaction_harness::{Doc, Label, Set};

pub const FAMILIES: [&str; 26] = [
    "kiosk",
    "willcall",
    "specimen",
    "whiteboard",
    "huddle",
    "dlounge",
    "ambulette",
    "consent",
    "vaxsign",
    "waiver",
    "growth",
    "telerx",
    "rpm",
    "pendant",
    "evv",
    "awv",
    "advdir",
    "flowers",
    "lostfound",
    "security",
    "parking",
    "comments",
    "ghissue",
    "excel",
    "famchat",
    "langs",
];

/// splitmix64: no rand crate among the dev-dependencies.
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
        lo + self.below((hi - lo + 1) as usize) as u32
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
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
    "Sjoerd",
    "Ingeborg",
    "Maartje",
    "Torbjørn",
    "Sigrun",
    "Henrika",
    "Vojtěch",
    "Zdenka",
    "Bence",
    "Réka",
    "Ioana",
    "Sorin",
    "Wahyu",
    "Dewi",
    "Sumaiya",
    "Arnab",
    "Tigist",
    "Dawit",
    "Adebayo",
    "Folake",
    "Chiamaka",
    "Obinna",
    "Ngozi",
    "Kaveh",
    "Leilani",
    "Matías",
    "Yusuf",
    "Thandiwe",
    "Hazel",
    "Dusty",
    "Birdie",
    "Grover",
    "Clementine",
    "Cosmo",
    "Marigold",
    "Amos",
    "Ottilie",
    "Barnaby",
    "Hyun-woo",
    "Xiomara",
    "Patience",
    "Honor",
    "Pearl",
    "Forrest",
    "Autumn",
    "Sterling",
    "Bonnie",
    "Ragnhild",
    "Eszter",
    "Florin",
    "Rahmat",
    "Mahbub",
    "Selam",
    "Kehinde",
    "Ifeoma",
    "Gideon",
    "Lavinia",
    "Wren",
    "Ezekiel",
    "Saoirse",
    "Tavita",
    "Junie",
];
const LAST: &[&str] = &[
    "Verhoeven",
    "Lindqvist",
    "Bakkerud",
    "Fjeldstad",
    "Dvořáková",
    "Kovalčík",
    "Szabolcsi",
    "Bălănescu",
    "Ionescu-Dobre",
    "Setiawan",
    "Nugroho",
    "Chowdhury",
    "Bhattacharjee",
    "Tesfaye",
    "Gebremariam",
    "Adeyemi-Cole",
    "Okonkwo",
    "Nwachukwu",
    "Oyelaran",
    "van den Broek",
    "de Groot",
    "O'Driscoll",
    "MacAskill",
    "Fairweather",
    "Brook",
    "Mercer",
    "Dunmore",
    "Villanueva",
    "Haddad",
    "Nakashima",
    "Truong",
    "Abernethy-Lowe",
    "Winter",
    "Lamb",
    "Church",
    "Bishop",
    "Fox",
    "Holmgaard",
    "Vasilescu",
    "Tóthné",
    "Kurniawan",
    "Mekonnen",
    "Eze",
    "Oduya",
    "Halloran",
    "Pettersen",
    "Quarles",
    "Marsh",
    "Stone",
    "Penhallow",
    "Iwu",
];
const NICK: &[&str] = &[
    "Bo", "Nono", "Tiny", "Gigi", "Sunny", "Pip", "Buddy", "Lolo",
];
const STAFF: &[&str] = &[
    "Mirela Castavet",
    "Osric Pembleton",
    "Daniela Vuković",
    "Tobias Ahlgren",
    "Fenna Rooker",
    "Kwabena Asare",
    "Lucinda Marchetti",
    "Rosalind Teague",
];
const SITES: &[&str] = &[
    "Tamarack Urgent Care",
    "Bellwether Regional Medical Center",
    "Kestrel Home Care",
    "Saltbox Pharmacy",
    "Larchmont Children's Clinic",
    "Cinderford Research Institute",
];
const STREETS: &[&str] = &[
    "Quillback Lane",
    "Ferncliff Terrace",
    "Gallowgate Rd",
    "Juniper Hollow Dr",
    "Tansy Court",
    "Weatherby Pkwy",
    "Oriel Street",
    "Breakwater Ave",
    "Heronsgate Way",
    "Pumphouse Road",
    "Kittiwake Circle",
    "Old Mill Trace",
];
const CITIES: &[&str] = &[
    "Ashgrove",
    "Fennimore",
    "Lake Tamsin",
    "Port Orrin",
    "Wexcombe",
    "Bramblewood",
    "Quarry Falls",
    "Hollis Junction",
];
const STATES: &[&str] = &["OR", "MN", "WI", "NC", "VT", "NM"];
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
const WEEKDAYS: &[&str] = &[
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

#[derive(Clone)]
struct P {
    first: String,
    last: String,
}

impl P {
    fn new(r: &mut Rng) -> P {
        P {
            first: r.pick(FIRST).to_string(),
            last: r.pick(LAST).to_string(),
        }
    }
    fn full(&self) -> String {
        format!("{} {}", self.first, self.last)
    }
}

/// A document being written: text and its labels.
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
            start,
            end: self.text.len(),
            kind,
        });
        self
    }
    fn person(&mut self, s: &str) -> &mut B {
        self.l(Kind::Person, s)
    }
    /// A name in one of the shapes people write it; each labelled part covers only the name.
    fn name(&mut self, r: &mut Rng, p: &P) -> &mut B {
        match r.below(10) {
            0 => self
                .person(&p.last.to_uppercase())
                .t(", ")
                .person(&p.first.to_uppercase()),
            1 => self.person(&p.last).t(", ").person(&p.first),
            2 => self.person(&p.full().to_lowercase()),
            3 => self.person(&p.first),
            4 => {
                let i: String = p.first.chars().take(1).collect();
                self.person(&format!("{i}. {}", p.last))
            }
            5 => self.person(&p.full().to_uppercase()),
            6 => {
                let nick = r.pick(NICK);
                self.person(&p.first)
                    .t(" \"")
                    .person(nick)
                    .t("\" ")
                    .person(&p.last)
            }
            _ => self.person(&p.full()),
        }
    }
    /// A possessive: the name labelled, not its "'s".
    fn poss(&mut self, s: &str) -> &mut B {
        self.person(s).t("'s")
    }
    fn done(self, family: &'static str) -> Doc {
        Doc {
            family,
            text: self.text,
            labels: self.labels,
        }
    }
}

fn dob(r: &mut Rng) -> String {
    date_in(r, 1926, 2016)
}
fn recent(r: &mut Rng) -> String {
    date_in(r, 2024, 2026)
}
fn date_in(r: &mut Rng, lo: u32, hi: u32) -> String {
    let (y, m, d) = (r.range(lo, hi), r.range(1, 12), r.range(1, 28));
    let mon = MONTHS[m as usize - 1];
    match r.below(8) {
        0 => format!("{m:02}/{d:02}/{y}"),
        1 => format!("{y}-{m:02}-{d:02}"),
        2 => format!("{d} {} {y}", &mon[..3]),
        3 => format!("{mon} {d}, {y}"),
        4 => format!("{d:02}.{m:02}.{y}"),
        5 => format!("{m}/{d}/{:02}", y % 100),
        6 => format!("{d}-{}-{y}", mon[..3].to_uppercase()),
        _ => format!("{y}{m:02}{d:02}"),
    }
}
fn phone(r: &mut Rng) -> String {
    let (a, b, c) = (r.range(201, 989), r.range(200, 999), r.range(0, 9999));
    match r.below(6) {
        0 => format!("({a}) {b}-{c:04}"),
        1 => format!("{a}.{b}.{c:04}"),
        2 => format!("+1 {a} {b} {c:04}"),
        3 => format!("{a}-{b}-{c:04}"),
        4 => format!("1-{a}-{b}-{c:04}"),
        _ => format!("{a}/{b}-{c:04}"),
    }
}
fn email(r: &mut Rng, p: &P) -> String {
    let dom = r.pick(&[
        "fastmail.com",
        "gmail.com",
        "proton.me",
        "outlook.com",
        "ziggo.nl",
    ]);
    let f = ascii(&p.first).to_lowercase();
    let l = ascii(&p.last).to_lowercase();
    match r.below(3) {
        0 => format!("{f}.{l}@{dom}"),
        1 => format!("{}{l}{}@{dom}", &f[..1], r.range(1, 99)),
        _ => format!("{l}_{f}@{dom}"),
    }
}
/// Letters only, for e-mail local parts.
fn ascii(s: &str) -> String {
    s.chars().filter(|c| c.is_ascii_alphabetic()).collect()
}
fn street(r: &mut Rng) -> String {
    let n = r.range(3, 9877);
    let s = r.pick(STREETS);
    match r.below(4) {
        0 => format!("{n} {s} Apt {}{}", r.range(1, 9), r.pick(&["A", "B", "C"])),
        1 => format!("{n} {s}, Unit {}", r.range(2, 40)),
        _ => format!("{n} {s}"),
    }
}
fn zip(r: &mut Rng) -> String {
    if r.chance(30) {
        format!("{}-{}", r.digits(5), r.digits(4))
    } else {
        r.digits(5)
    }
}
/// Street, town, state and ZIP: street and town are Address, the ZIP Zip, the state nothing.
fn address(b: &mut B, r: &mut Rng) {
    let (s, c, st, z) = (street(r), r.pick(CITIES), r.pick(STATES), zip(r));
    b.l(Kind::Address, &s)
        .t(", ")
        .l(Kind::Address, c)
        .t(&format!(" {st} "))
        .l(Kind::Zip, &z);
}
fn mrn(r: &mut Rng) -> String {
    match r.below(3) {
        0 => r.digits(8),
        1 => format!("{}{}", r.pick(&["BW", "TUC", "K"]), r.digits(7)),
        _ => format!("{}-{}", r.digits(3), r.digits(5)),
    }
}
fn plan(r: &mut Rng) -> String {
    match r.below(3) {
        0 => format!("{}{}", r.letters(3), r.digits(9)),
        1 => format!("{}{}{}", r.range(1, 9), r.letters(2), r.digits(7)),
        _ => format!("W{}-{}", r.digits(6), r.digits(2)),
    }
}
fn account(r: &mut Rng) -> String {
    match r.below(2) {
        0 => r.digits(10),
        _ => format!("A{}-{}", r.digits(4), r.digits(4)),
    }
}
fn ssn(r: &mut Rng) -> String {
    format!(
        "{}-{:02}-{:04}",
        r.range(101, 665),
        r.range(10, 99),
        r.range(1000, 9999)
    )
}
fn card(r: &mut Rng) -> String {
    let mut ds: Vec<u32> = vec![4];
    ds.extend((0..14).map(|_| r.range(0, 9)));
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
    if r.chance(50) {
        format!("{} {} {} {}", &s[..4], &s[4..8], &s[8..12], &s[12..])
    } else {
        s
    }
}
fn ip(r: &mut Rng) -> String {
    format!(
        "{}.{}.{}.{}",
        r.pick(&["10", "172", "192", "73"]),
        r.range(0, 254),
        r.range(0, 254),
        r.range(1, 254)
    )
}
fn plate(r: &mut Rng) -> String {
    match r.below(2) {
        0 => format!("{}-{}", r.letters(3), r.digits(4)),
        _ => format!("{}{}{}", r.range(1, 9), r.letters(3), r.digits(3)),
    }
}
fn licence(r: &mut Rng) -> String {
    format!(
        "{}{}-{}-{}",
        r.letters(1),
        r.digits(4),
        r.digits(4),
        r.digits(4)
    )
}
fn serial(r: &mut Rng, prefix: &str) -> String {
    format!("{prefix}{}{}", r.letters(2), r.digits(7))
}
fn age(r: &mut Rng) -> String {
    r.range(90, 104).to_string()
}
fn room(r: &mut Rng) -> String {
    match r.below(3) {
        0 => r.range(101, 880).to_string(),
        1 => format!("{}{}", r.range(2, 40), r.pick(&["A", "B"])),
        _ => format!("{}-{}", r.range(3, 9), r.range(10, 60)),
    }
}
fn time(r: &mut Rng) -> String {
    format!("{:02}:{:02}", r.range(6, 22), r.range(0, 59))
}
fn staff(r: &mut Rng) -> &'static str {
    r.pick(STAFF)
}
fn site(r: &mut Rng) -> &'static str {
    r.pick(SITES)
}
fn npi(r: &mut Rng) -> String {
    format!("1{}", r.digits(9))
}
fn lot(r: &mut Rng) -> String {
    format!("{}{}", r.letters(2), r.digits(4))
}

fn kiosk(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    if r.chance(40) {
        b.t(&format!(
            "{{\"evt\":\"kiosk.checkin\",\"kiosk\":\"TUC-{}\",\"ts\":\"",
            r.range(1, 9)
        ))
        .l(
            Kind::Date,
            &format!("2025-{:02}-{:02}", r.range(1, 12), r.range(1, 28)),
        );
        b.t(&format!(" {}\",\"first\":\"", time(r)))
            .l(Kind::Person, &p.first)
            .t("\",\"last\":\"")
            .l(Kind::Person, &p.last);
        b.t("\",\"dob\":\"")
            .l(Kind::Date, &dob(r))
            .t("\",\"email\":\"")
            .l(Kind::Email, &email(r, p));
        b.t("\",\"copay_card\":\"")
            .l(Kind::Card, &card(r))
            .t("\",\"visit_type\":\"99203\",\"client_ip\":\"")
            .l(Kind::Ip, &ip(r))
            .t("\"}\n");
        return b;
    }
    b.t("[")
        .l(Kind::Date, &recent(r))
        .t(&format!(" {}] KIOSK-07 {} check-in\n", time(r), site(r)));
    b.t("scan_id: ok  name=")
        .name(r, p)
        .t("\n  dob=")
        .l(Kind::Date, &dob(r));
    b.t("  phone=")
        .l(Kind::Phone, &phone(r))
        .t("\n  ins_member=")
        .l(Kind::HealthPlan, &plan(r));
    b.t("  reason=\"sore throat x3 days\"  queue=B")
        .t(&r.range(1, 40).to_string());
    if r.chance(50) {
        b.t("\n  dl_scan=")
            .l(Kind::License, &licence(r))
            .t(" state=")
            .t(r.pick(STATES));
    }
    b.t(&format!("\n  triage_rn={}  est_wait=18m\n", staff(r)));
    if r.chance(40) {
        b.t("  addr_confirm=").l(Kind::Address, &street(r)).t("\n");
    }
    b
}

fn willcall(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    if r.chance(40) {
        b.t(&format!("[{}{}] ", r.letters(1), r.range(1, 30))).l(
            Kind::Person,
            &format!("{} {}", p.last, p.first.chars().next().unwrap_or('x')).to_lowercase(),
        );
        b.t(" — 2 bags, fridge item (insulin), ");
        b.t("due back to stock ")
            .t(r.pick(WEEKDAYS))
            .t(". txt sent to ")
            .l(Kind::Phone, &phone(r))
            .t("\n");
        return b;
    }
    b.t(&format!(
        "{}  WILL-CALL  BIN {}{}\n",
        site(r).to_uppercase(),
        r.letters(1),
        r.range(1, 30)
    ));
    b.t("PT: ")
        .l(Kind::Person, &p.last.to_uppercase())
        .t(", ")
        .l(Kind::Person, &p.first.to_uppercase());
    b.t("   DOB ")
        .l(Kind::Date, &dob(r))
        .t("\nOrder# ")
        .t(&r.digits(7))
        .t("  NDC 0093-");
    b.t(&format!("{:04}-{:02}", r.range(1000, 9999), r.range(1, 99)));
    b.t("  qty 30\nFilled ")
        .l(Kind::Date, &recent(r))
        .t(" — RTS after 10 days\nCALL ")
        .l(Kind::Phone, &phone(r));
    if r.chance(50) {
        let c = P::new(r);
        b.t("\nPickup OK: ").name(r, &c).t(" (daughter)");
    }
    b.t(&format!("\nRPh {}\n", staff(r)));
    b
}

fn specimen(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t("^XA^FO30,20^A0N,28^FD")
        .l(Kind::Person, &p.last.to_uppercase())
        .t(",")
        .l(Kind::Person, &p.first.to_uppercase())
        .t("^FS\n");
    let m = mrn(r);
    b.t("^FO30,55^FDMRN:")
        .l(Kind::Mrn, &m)
        .t(" DOB:")
        .l(Kind::Date, &dob(r))
        .t("^FS\n");
    b.t("^FO30,90^BCN,60^FD").l(Kind::Mrn, &m).t("^FS\n");
    b.t(&format!(
        "^FO30,160^FDLAV 4mL CBC w/diff CPT 85025 coll {} {}^FS\n",
        time(r),
        r.pick(WEEKDAYS)
    ));
    b.t("^FO30,190^FDColl: ")
        .l(Kind::Date, &recent(r))
        .t(" rm ")
        .l(Kind::Room, &room(r))
        .t("^FS\n^XZ\n");
    b
}

fn whiteboard(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t("ED TRACK BOARD export ")
        .l(Kind::Date, &recent(r))
        .t(&format!("  {}\nRM | PT | AGE | CC | RN | DISPO\n", time(r)));
    for i in 0..r.range(3, 5) {
        let q = if i == 0 { p.clone() } else { P::new(r) };
        b.l(Kind::Room, &room(r)).t(" | ");
        b.l(Kind::Person, &q.last)
            .t(", ")
            .l(Kind::Person, &q.first)
            .t(" | ");
        if r.chance(35) {
            b.l(Kind::Age, &age(r));
        } else {
            b.t(&r.range(18, 88).to_string());
        }
        b.t(&format!(
            " | {} | {} | {}\n",
            r.pick(&["CP", "SOB", "fall", "AMS", "abd pain"]),
            staff(r),
            r.pick(&["adm 4W", "d/c", "pending CT", "obs"])
        ));
    }
    b
}

fn huddle(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    if r.chance(40) {
        b.t(&format!(
            "HUDDLE {} 14:00 (EVS + nursing)\nDirty beds: ",
            r.pick(WEEKDAYS)
        ))
        .l(Kind::Room, &room(r))
        .t(", ")
        .l(Kind::Room, &room(r));
        b.t("\nIsolation: ")
            .l(Kind::Person, &p.last.to_uppercase())
            .t(" (C. diff) — terminal clean after d/c\nFamily of ");
        b.poss(&p.first)
            .t(" roommate complaining, move to ")
            .l(Kind::Room, &room(r))
            .t(" if open. Next huddle tomorrow 07:30.\n");
        return b;
    }
    b.t(&format!(
        "Bed huddle {} 0730 — {}\nCapacity 94%, 6 pending admits.\n",
        r.pick(WEEKDAYS),
        site(r)
    ));
    b.t("- ")
        .name(r, p)
        .t(" (MRN ")
        .l(Kind::Mrn, &mrn(r))
        .t(") in ")
        .l(Kind::Room, &room(r));
    b.t(", boarding since ")
        .l(Kind::Date, &recent(r))
        .t("; needs tele bed\n");
    let q = P::new(r);
    b.t("- ")
        .l(Kind::Person, &q.last.to_uppercase())
        .t(" d/c today once ride confirmed (son ");
    b.l(Kind::Phone, &phone(r)).t(")\n");
    if r.chance(50) {
        b.t("- ")
            .poss(&p.first)
            .t(" wife asked about 5N; age ")
            .l(Kind::Age, &age(r))
            .t(", fall risk\n");
    }
    b.t(&format!(
        "Action: {} to call transfer center by 09:00.\n",
        staff(r)
    ));
    b
}

fn dlounge(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t("DISCHARGE LOUNGE — pickup list ")
        .l(Kind::Date, &recent(r))
        .t("\n");
    for i in 0..r.range(3, 4) {
        let q = if i == 0 { p.clone() } else { P::new(r) };
        let d = P::new(r);
        b.t("* ")
            .name(r, &q)
            .t(" from ")
            .l(Kind::Room, &room(r))
            .t(" — ride: ")
            .name(r, &d);
        b.t(", ").l(Kind::Phone, &phone(r));
        if r.chance(40) {
            b.t(", car ")
                .t(r.pick(&["silver Camry", "red Kia", "white van"]))
                .t(" plate ")
                .l(Kind::Vehicle, &plate(r));
        }
        b.t(&format!(" ETA {}\n", time(r)));
    }
    b
}

fn ambulette(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t(&format!(
        "DISPATCH #{} unit AMB-{} {}\n",
        r.digits(6),
        r.range(2, 30),
        time(r)
    ));
    b.t("Rider: ")
        .name(r, p)
        .t("  DOB ")
        .l(Kind::Date, &dob(r))
        .t("\nPU: ");
    address(&mut b, r);
    b.t(&format!("\nDO: {} dialysis entrance B\n", site(r)));
    b.t("Medicaid ID ")
        .l(Kind::HealthPlan, &plan(r))
        .t("  wheelchair, O2 2L\nCallback ")
        .l(Kind::Phone, &phone(r));
    b.t(&format!(
        "\nAppt {} — return trip will-call. Driver {}.\n",
        r.pick(WEEKDAYS),
        r.pick(&["Rollo", "Dee", "Marcus T"])
    ));
    b
}

fn consent(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t(&format!(
        "Study CRI-{}-{} consent log (v{}.{})\n",
        r.range(19, 26),
        r.digits(3),
        r.range(1, 5),
        r.range(0, 9)
    ));
    b.t(&format!("Site {:02} | ", r.range(1, 12)))
        .name(r, p)
        .t(" | MRN ")
        .l(Kind::Mrn, &mrn(r));
    b.t(" | consented ")
        .l(Kind::Date, &recent(r))
        .t(&format!(" {}", time(r)));
    b.t(" | LAR: ");
    let lar = P::new(r);
    b.name(r, &lar).t(" (spouse)");
    b.t(&format!(" | obtained by {} | IRB ok\n", staff(r)));
    if r.chance(50) {
        b.t("Re-consent mailed to ")
            .l(Kind::Email, &email(r, p))
            .t("\n");
    }
    b
}

fn vaxsign(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t(&format!("Flu/COVID clinic sign-in — {} gym, ", site(r)))
        .l(Kind::Date, &recent(r))
        .t("\nName | DOB | Phone | Lot\n");
    for i in 0..r.range(3, 5) {
        let q = if i == 0 { p.clone() } else { P::new(r) };
        b.name(r, &q)
            .t(" | ")
            .l(Kind::Date, &dob(r))
            .t(" | ")
            .l(Kind::Phone, &phone(r))
            .t(&format!(" | {}\n", lot(r)));
    }
    b.t("Exp 05/2027. CVX 141, 0.5 mL IM.\n");
    b
}

fn waiver(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    let g = P {
        first: r.pick(FIRST).to_string(),
        last: p.last.clone(),
    };
    b.t("NORTH RIDGE MIDDLE SCHOOL — ATHLETIC PARTICIPATION WAIVER\nSport: ")
        .t(r.pick(&["volleyball", "cross country", "wrestling"]));
    b.t("\nStudent: ")
        .name(r, p)
        .t("   Birthdate: ")
        .l(Kind::Date, &date_in(r, 2010, 2015));
    b.t("\nParent/guardian: ")
        .l(Kind::Person, &g.full())
        .t("  cell ")
        .l(Kind::Phone, &phone(r));
    b.t("\nHome: ");
    address(&mut b, r);
    b.t("\nInsurer / member #: Cascadia Health ")
        .l(Kind::HealthPlan, &plan(r));
    b.t(&format!(
        "\nPhysical on file: yes (PA {})\nSigned ",
        staff(r)
    ))
    .l(Kind::Date, &recent(r))
    .t("\n");
    b
}

fn growth(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t("patient_name,mrn,sex,dob,visit_date,age_mo,wt_kg,ht_cm,bmi_pct\n");
    let (n, m, d) = (p.full(), mrn(r), date_in(r, 2014, 2024));
    for _ in 0..r.range(2, 4) {
        b.t("\"")
            .l(Kind::Person, &n)
            .t("\",")
            .l(Kind::Mrn, &m)
            .t(",F,")
            .l(Kind::Date, &d)
            .t(",");
        b.l(Kind::Date, &recent(r)).t(&format!(
            ",{},{}.{},{}.{},{}\n",
            r.range(6, 120),
            r.range(6, 40),
            r.range(0, 9),
            r.range(60, 150),
            r.range(0, 9),
            r.range(3, 97)
        ));
    }
    b.t(&format!(
        "# exported by {} from Larchmont Children's Clinic, CDC 2000 charts\n",
        staff(r)
    ));
    b
}

fn telerx(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t(&format!(
        "[{}] {} (RPh, remote): Hi, who am I speaking with?\n",
        time(r),
        staff(r)
    ));
    b.t(&format!("[{}] tech-site3: patient here, ", time(r)))
        .l(Kind::Person, &p.full().to_lowercase());
    b.t(", dob ").l(Kind::Date, &dob(r)).t("\n");
    b.t(&format!("[{}] {} (RPh, remote): thanks. new Rx lisinopril 10 mg, NPI {} prescriber. any allergies?\n", time(r), staff(r), npi(r)));
    b.t(&format!(
        "[{}] tech-site3: pcn. she says call her daughter ",
        time(r)
    ))
    .l(Kind::Person, r.pick(FIRST))
    .t(" at ");
    b.l(Kind::Phone, &phone(r)).t(" if questions\n");
    if r.chance(50) {
        b.t(&format!("[{}] tech-site3: card on file ending ", time(r)))
            .t(&r.digits(4))
            .t(" declined, she paid with ")
            .l(Kind::Card, &card(r))
            .t("\n");
    }
    b
}

fn rpm(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    if r.chance(40) {
        b.t("device,patient,dob,date,weight_lb,delta_lb,alert\n");
        let (dv, d) = (serial(r, "SC-"), dob(r));
        for _ in 0..3 {
            b.l(Kind::Device, &dv)
                .t(",")
                .l(Kind::Person, &p.full().to_uppercase())
                .t(",")
                .l(Kind::Date, &d)
                .t(",")
                .l(Kind::Date, &recent(r));
            b.t(&format!(
                ",{}.{},+{}.{},{}\n",
                r.range(120, 260),
                r.range(0, 9),
                r.range(0, 5),
                r.range(0, 9),
                r.pick(&["CHF_GAIN", "none"])
            ));
        }
        return b;
    }
    let dev = serial(r, "BPC-");
    b.t("{\"alert\":\"BP_HIGH\",\"device_sn\":\"")
        .l(Kind::Device, &dev)
        .t("\",\"patient\":\"")
        .l(Kind::Person, &p.full());
    b.t("\",\"mrn\":\"").l(Kind::Mrn, &mrn(r)).t(&format!(
        "\",\"reading\":\"{}/{}\",\"hr\":{},",
        r.range(150, 190),
        r.range(90, 120),
        r.range(60, 100)
    ));
    b.t("\"ts\":\"")
        .l(
            Kind::Date,
            &format!("2026-{:02}-{:02}", r.range(1, 12), r.range(1, 28)),
        )
        .t(&format!("T{}:00Z\",\"gw_ip\":\"", time(r)))
        .l(Kind::Ip, &ip(r))
        .t("\"}\n");
    b.t(&format!("Nurse note ({}): called pt at ", staff(r)))
        .l(Kind::Phone, &phone(r));
    b.t(", repeat 148/88 after rest. Scale ")
        .l(Kind::Device, &serial(r, "WS"))
        .t(" synced ok.\n");
    b
}

fn pendant(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    if r.chance(40) {
        b.t("agent: AlertLine, this is ")
            .t(staff(r))
            .t(", do you need help?\ncaller: yes its ")
            .l(Kind::Person, &p.first.to_lowercase());
        b.t(" i fell by the tub\nagent: are you at ")
            .l(Kind::Address, &street(r))
            .t("?\ncaller: yes. i'm ")
            .l(Kind::Age, &age(r));
        b.t(" you know, cant get up\nagent: i'm calling your daughter ")
            .l(Kind::Person, r.pick(FIRST))
            .t(" at ")
            .l(Kind::Phone, &phone(r))
            .t(" and EMS now.\n");
        return b;
    }
    b.t(&format!(
        "CALL LOG {} — pendant button press, {}\nSubscriber: ",
        time(r),
        r.pick(WEEKDAYS)
    ));
    b.name(r, p).t(", age ").l(Kind::Age, &age(r)).t("\nAddr: ");
    address(&mut b, r);
    b.t("\nPendant SN ")
        .l(Kind::Device, &serial(r, "MA"))
        .t("\nResponder 1: ");
    let q = P::new(r);
    b.name(r, &q).t(" (neighbor) ").l(Kind::Phone, &phone(r));
    b.t("\nOutcome: fall, no injury, lift assist by fire dept. Keybox code on file.\n");
    b
}

fn evv(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    if r.chance(40) {
        b.t("Visit verification — manual entry (phone down)\nClient: ")
            .name(r, p)
            .t("\nService address: ");
        address(&mut b, r);
        b.t("\nDate of service: ").l(Kind::Date, &recent(r)).t(&format!("  in {} out {}\nTasks: bathing, meal prep, med reminder (S5130)\nClient signature on file; caregiver {}\n", time(r), time(r), staff(r)));
        return b;
    }
    b.t("EVV|agency=Kestrel Home Care|aide=")
        .t(staff(r))
        .t("|client=")
        .l(Kind::Person, &p.last)
        .t("^")
        .l(Kind::Person, &p.first);
    b.t("|medicaid=")
        .l(Kind::HealthPlan, &plan(r))
        .t("|svc=T1019|in=")
        .l(Kind::Date, &recent(r))
        .t(&format!(" {}", time(r)));
    b.t("|phone=").l(Kind::Phone, &phone(r)).t("\n");
    b.t("EVV|exception=late clock-out|reason=client ")
        .l(Kind::Person, &p.first.to_lowercase())
        .t(" needed shower help|device_ip=")
        .l(Kind::Ip, &ip(r))
        .t("\n");
    b
}

fn awv(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t("MEDICARE ANNUAL WELLNESS VISIT — HEALTH RISK ASSESSMENT\n1. Your name: ")
        .name(r, p);
    b.t("\n2. Date of birth: ")
        .l(Kind::Date, &dob(r))
        .t("   Age: ");
    if r.chance(60) {
        b.l(Kind::Age, &age(r));
    } else {
        b.t(&r.range(65, 89).to_string());
    }
    b.t("\n3. Medicare number: ").l(
        Kind::HealthPlan,
        &format!(
            "{}{}{}-{}{}-{}",
            r.range(1, 9),
            r.letters(1),
            r.letters(1),
            r.range(0, 9),
            r.letters(2),
            r.digits(4)
        ),
    );
    b.t("\n4. Who lives with you? ")
        .t(r.pick(&["my husband ", "my sister ", "grandson "]))
        .l(Kind::Person, r.pick(FIRST));
    b.t("\n5. Falls in the past year? 2\n6. Emergency contact phone: ")
        .l(Kind::Phone, &phone(r));
    b.t(&format!("\nG0439, reviewed by {}\n", staff(r)));
    b
}

fn advdir(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t("ADVANCE DIRECTIVE — WITNESS PAGE\nI, ")
        .name(r, p)
        .t(", born ")
        .l(Kind::Date, &dob(r));
    b.t(", residing at ");
    address(&mut b, r);
    b.t(", appoint as my health care agent ");
    let a = P::new(r);
    b.name(r, &a)
        .t(", tel. ")
        .l(Kind::Phone, &phone(r))
        .t(".\nWitness 1: ");
    let w = P::new(r);
    b.name(r, &w)
        .t("   Witness 2: ")
        .t(staff(r))
        .t(" (not eligible: employee)\nSigned this ");
    b.l(Kind::Date, &recent(r))
        .t(". Notary commission expires 11/2028.\n");
    b
}

fn flowers(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t(&format!(
        "Petals & Pages gift shop — delivery #{}\nTo: ",
        r.digits(5)
    ));
    b.name(r, p)
        .t(", Room ")
        .l(Kind::Room, &room(r))
        .t(", ")
        .t(site(r));
    b.t("\nCard: \"Get well soon ")
        .l(Kind::Person, &p.first)
        .t("!! love, ");
    let q = P::new(r);
    b.l(Kind::Person, &q.first)
        .t(" & the ")
        .l(Kind::Person, &q.last)
        .t(" gang\"\nOrdered by ")
        .l(Kind::Email, &email(r, &q));
    b.t(" paid ").l(Kind::Card, &card(r)).t(&format!(
        "\nDeliver before {} — balloons not allowed on 4E.\n",
        time(r)
    ));
    b
}

fn lostfound(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    if r.chance(40) {
        b.t(&format!(
            "Patient belongings envelope #{} — sealed at bedside\nPatient: ",
            r.digits(5)
        ))
        .name(r, p);
        b.t("  MRN ")
            .l(Kind::Mrn, &mrn(r))
            .t("  Rm ")
            .l(Kind::Room, &room(r));
        b.t("\nContents: hearing aids (L/R), iPhone, Visa ending ")
            .t(&r.digits(4))
            .t(", $42 cash, keys\nHearing aid serial ");
        b.l(Kind::Device, &serial(r, "HA"))
            .t("\nWitness: ")
            .t(staff(r))
            .t("  returned to wife ")
            .l(Kind::Person, r.pick(FIRST))
            .t(" next day\n");
        return b;
    }
    b.t(&format!(
        "LOST & FOUND LOG  item #{}\nFound: {} lobby, ",
        r.digits(4),
        site(r)
    ))
    .l(Kind::Date, &recent(r))
    .t("\n");
    b.t("Item: wallet, contains driver license ")
        .l(Kind::License, &licence(r))
        .t(" in name of ")
        .name(r, p);
    b.t(", insurance card ")
        .l(Kind::HealthPlan, &plan(r))
        .t("\nOwner contacted at ")
        .l(Kind::Phone, &phone(r));
    b.t(" on ").l(Kind::Date, &recent(r)).t(&format!(
        "; released by {} to owner (ID checked).\n",
        staff(r)
    ));
    b
}

fn security(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    if r.chance(40) {
        let v = P::new(r);
        b.t(&format!("Shift log — Officer {}\n{} ", staff(r), time(r)))
            .t("Code Gray called, ED triage. Pt ")
            .name(r, p);
        b.t(" (")
            .l(Kind::Age, &age(r))
            .t(" yo) agitated; son ")
            .name(r, &v)
            .t(" restrained him.\n");
        b.t(&format!("{} Son left in ", time(r)))
            .t(r.pick(&["blue Tacoma", "black Charger", "grey Subaru"]))
            .t(", WA plate ")
            .l(Kind::Vehicle, &plate(r));
        b.t(", DL ").l(Kind::License, &licence(r)).t(" copied.\n");
        return b;
    }
    b.t(&format!(
        "SECURITY INCIDENT REPORT IR-{}-{}\nDate/time: ",
        r.range(24, 26),
        r.digits(4)
    ));
    b.l(Kind::Date, &recent(r))
        .t(&format!(" {}\nLocation: ED bay ", time(r)))
        .l(Kind::Room, &room(r));
    b.t("\nSubject: visitor ");
    let v = P::new(r);
    b.name(r, &v)
        .t(", visiting patient ")
        .name(r, p)
        .t("\nVehicle: ")
        .l(Kind::Vehicle, &plate(r));
    b.t(" parked in ambulance bay; VIN ").l(
        Kind::Vehicle,
        &format!("1FT{}{}", r.letters(5), r.digits(9)),
    );
    b.t(&format!(
        "\nOfficer {} badge 2291 issued trespass warning. Camera CAM-{} retained.\n",
        staff(r),
        r.range(10, 99)
    ));
    b
}

fn parking(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t("From: parking@bellwether-rmc.org\nTo: ")
        .l(Kind::Email, &email(r, p));
    b.t(&format!(
        "\nSubject: Your parking validation ({} visit)\n\nDear ",
        r.pick(WEEKDAYS)
    ))
    .l(Kind::Person, &p.first)
    .t(",\n");
    b.t("Your plate ")
        .l(Kind::Vehicle, &plate(r))
        .t(" was validated for Garage C on ")
        .l(Kind::Date, &recent(r));
    b.t(". Patient account ")
        .l(Kind::Account, &account(r))
        .t(" has 3 discounted exits left.\nManage: ");
    b.l(
        Kind::Url,
        &format!(
            "https://park.bellwether-rmc.org/v?acct={}&pt={}",
            r.digits(8),
            r.digits(6)
        ),
    );
    b.t("\n— Bellwether Regional Medical Center Parking Services\n");
    b
}

fn comments(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    if r.chance(40) {
        b.t("Comment (web form): Overall 2/5. Billing sent my statement to the wrong house, it should be ");
        address(&mut b, r);
        b.t(". Please fix account ")
            .l(Kind::Account, &account(r))
            .t(".\n\n--\n")
            .l(Kind::Person, &p.full())
            .t(" | ");
        b.t(r.pick(&[
            "Senior Product Manager at Brightwell Foods",
            "Realtor | Helping families find home",
            "Retired teacher",
        ]));
        b.t("\n").l(
            Kind::Url,
            &format!(
                "linkedin.com/in/{}-{}-{}",
                ascii(&p.first).to_lowercase(),
                ascii(&p.last).to_lowercase(),
                r.digits(3)
            ),
        );
        b.t("  ☎ ").l(Kind::Phone, &phone(r)).t("\n");
        return b;
    }
    b.t(&format!(
        "Survey Q7 free text (unit 5W, discharged {}):\n",
        r.pick(MONTHS)
    ));
    b.t("\"nurse ")
        .t(staff(r))
        .t(" was wonderful to my mom ")
        .l(Kind::Person, &p.full());
    b.t(" (she is ")
        .l(Kind::Age, &age(r))
        .t("!) but the room ")
        .l(Kind::Room, &room(r));
    b.t(" was freezing. call me ")
        .l(Kind::Phone, &phone(r))
        .t(" — ")
        .l(Kind::Person, r.pick(FIRST))
        .t("\"\n");
    b.t("Respondent email: ")
        .l(Kind::Email, &email(r, p))
        .t("  wave 88\n");
    b
}

fn ghissue(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t(&format!("**@{}** commented:\n\nStill failing on the HL7 bridge after the upgrade, log below:\n```\n", r.pick(&["mkrol", "devon-ops", "tjh"])));
    b.l(Kind::Date, &format!("2026-03-0{}", r.range(1, 9)))
        .t(&format!(
            "T{}:12Z ERROR mapper: bad PID-7 for patient=\"",
            time(r)
        ))
        .l(Kind::Person, &p.full());
    b.t("\" mrn=")
        .l(Kind::Mrn, &mrn(r))
        .t(" ssn=")
        .l(Kind::Ssn, &ssn(r))
        .t(" dob=")
        .l(Kind::Date, &dob(r))
        .t("\n");
    b.t("  at Mapper.parse (mapper.js:214) from=")
        .l(Kind::Ip, &ip(r))
        .t("\n```\nRepro link: ");
    b.l(
        Kind::Url,
        &format!("https://ehr-test.internal/chart/{}?view=demo", r.digits(7)),
    );
    b.t("\nSorry for pasting PHI — will scrub. Fixed in v4.2.1? cc @tjh\n");
    b
}

fn excel(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    b.t("Sheet1!A1:F1\tName\tDOB\tSSN\tFax\tFormula\n");
    let row = r.range(2, 80);
    b.t(&format!("Sheet1!A{row}\t"))
        .l(Kind::Person, &p.last)
        .t(", ")
        .l(Kind::Person, &p.first)
        .t("\t")
        .l(Kind::Date, &dob(r));
    b.t("\t")
        .l(Kind::Ssn, &ssn(r))
        .t("\t")
        .l(Kind::Fax, &phone(r));
    b.t(&format!("\t=DATEDIF(C{row},TODAY(),\"y\")\n"));
    b.t(&format!("Sheet1!G{row}\t=HYPERLINK(\"")).l(
        Kind::Url,
        &format!("https://portal.tamarack-uc.com/pt/{}", r.digits(6)),
    );
    b.t("\",\"chart\")\t=VLOOKUP(")
        .t(&format!("A{row}"))
        .t(",Payers!A:C,3,FALSE)\tCPT 99213\tICD J02.9\n");
    b
}

fn famchat(r: &mut Rng, p: &P) -> B {
    if r.chance(40) {
        return telegram(r, p);
    }
    let mut b = B::new();
    let sib = P::new(r);
    let d = format!("{}/{}/{}", r.range(1, 12), r.range(1, 28), r.range(24, 26));
    b.t("[")
        .l(Kind::Date, &d)
        .t(&format!(", {}] ", time(r)))
        .l(Kind::Person, &sib.first)
        .t(": mama is in room ")
        .l(Kind::Room, &room(r));
    b.t(" at bellwether 🙏 they said she's stable\n");
    b.t("[")
        .l(Kind::Date, &d)
        .t(&format!(", {}] ", time(r)))
        .l(Kind::Person, NICK[r.below(NICK.len())])
        .t(": omg. ")
        .poss(&p.first.to_lowercase())
        .t(" phone is dead, call the nurses station\n");
    b.t("[")
        .l(Kind::Date, &d)
        .t(&format!(", {}] ", time(r)))
        .l(Kind::Person, &sib.first)
        .t(": her MRN is ")
        .l(Kind::Mrn, &mrn(r))
        .t(" if u call, they ask dob ")
        .l(Kind::Date, &dob(r));
    b.t("\n");
    if r.chance(50) {
        b.t("[")
            .l(Kind::Date, &d)
            .t(&format!(", {}] ", time(r)))
            .l(Kind::Person, r.pick(FIRST))
            .t(": i can drive up tmrw, staying at ")
            .l(Kind::Address, &street(r))
            .t(" w/ aunt ");
        b.l(Kind::Person, r.pick(FIRST)).t("\n");
    }
    b
}

fn langs(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    match r.below(11) {
        6 => {
            b.t("Hei, dette er ")
                .name(r, p)
                .t(". Fødselsdato ")
                .l(Kind::Date, &dob(r))
                .t(". Bestefaren min, ");
            b.l(Kind::Person, r.pick(FIRST))
                .t(", er ")
                .l(Kind::Age, &age(r))
                .t(" år og bor i ")
                .l(Kind::Address, &street(r));
            b.t(", ").l(Kind::Address, r.pick(CITIES)).t(". Mvh\n");
        }
        7 => {
            b.t("Kære klinik, jeg hedder ")
                .name(r, p)
                .t(" og mit CPR-nummer er ")
                .l(Kind::Ssn, &format!("{}-{}", r.digits(6), r.digits(4)));
            b.t(". Ring venligst på ")
                .l(Kind::Phone, &phone(r))
                .t(" eller skriv til ")
                .l(Kind::Email, &email(r, p))
                .t(".\n");
        }
        8 => {
            b.t("Bună ziua, sunt ")
                .name(r, p)
                .t(", născută pe ")
                .l(Kind::Date, &dob(r))
                .t(". Mama mea, ");
            b.l(Kind::Person, &format!("{} {}", r.pick(FIRST), p.last))
                .t(", este în salonul ")
                .l(Kind::Room, &room(r));
            b.t(". Telefon: ").l(Kind::Phone, &phone(r)).t("\n");
        }
        9 => {
            b.t("Assalamu alaikum, amar naam ")
                .name(r, p)
                .t(". Amar jonmo tarikh ")
                .l(Kind::Date, &dob(r));
            b.t(". Amar baba ")
                .l(Kind::Person, r.pick(FIRST))
                .t(" er boyosh ")
                .l(Kind::Age, &age(r))
                .t(". Phone korben ")
                .l(Kind::Phone, &phone(r))
                .t(" e. Dhonnobad.\n");
        }
        10 => {
            b.t("Selam, sime ")
                .name(r, p)
                .t(" new. Yeltewelidkubet ken ")
                .l(Kind::Date, &dob(r))
                .t(". Ye hakim kutir ");
            b.l(Kind::Mrn, &mrn(r))
                .t(". Silk ")
                .l(Kind::Phone, &phone(r))
                .t(". Ameseginalehu.\n");
        }
        0 => {
            b.t("Goedemiddag, mijn moeder ")
                .name(r, p)
                .t(" (geboren ")
                .l(Kind::Date, &dob(r))
                .t(") ligt op kamer ");
            b.l(Kind::Room, &room(r))
                .t(". U kunt mij bellen op ")
                .l(Kind::Phone, &phone(r))
                .t(". Groet, ")
                .l(Kind::Person, r.pick(FIRST))
                .t("\n");
        }
        1 => {
            b.t("Hej! Jag heter ")
                .name(r, p)
                .t(", personnummer ")
                .l(Kind::Ssn, &format!("{}-{}", r.digits(6), r.digits(4)));
            b.t(". Min adress är ")
                .l(Kind::Address, &street(r))
                .t(". Ring ")
                .l(Kind::Phone, &phone(r))
                .t(" efter 16:00.\n");
        }
        2 => {
            b.t("Dobrý den, jsem ")
                .name(r, p)
                .t(", narozena ")
                .l(Kind::Date, &dob(r))
                .t(". Číslo pojištěnce ");
            b.l(Kind::HealthPlan, &plan(r))
                .t(". Můj e-mail: ")
                .l(Kind::Email, &email(r, p))
                .t("\n");
        }
        3 => {
            b.t("Jó napot! ")
                .name(r, p)
                .t(" vagyok, születtem ")
                .l(Kind::Date, &dob(r))
                .t(". Az apám ");
            b.l(Kind::Person, r.pick(FIRST))
                .t(" ")
                .l(Kind::Age, &age(r))
                .t(" éves. Telefon: ")
                .l(Kind::Phone, &phone(r))
                .t("\n");
        }
        4 => {
            b.t("Selamat pagi, nama saya ")
                .name(r, p)
                .t(", tanggal lahir ")
                .l(Kind::Date, &dob(r));
            b.t(". Nomor rekam medis ")
                .l(Kind::Mrn, &mrn(r))
                .t(". Tolong telepon ")
                .l(Kind::Phone, &phone(r))
                .t(". Terima kasih.\n");
        }
        _ => {
            b.t("E kaaro. Oruko mi ni ")
                .name(r, p)
                .t(". Ojo ibi mi: ")
                .l(Kind::Date, &dob(r));
            b.t(". Nwanne m nwoke ")
                .l(Kind::Person, r.pick(FIRST))
                .t(" ga-akpọ gi na ")
                .l(Kind::Phone, &phone(r))
                .t(". Daalụ.\n");
        }
    }
    b
}

/// A Telegram/Signal JSON export of a family group.
fn telegram(r: &mut Rng, p: &P) -> B {
    let mut b = B::new();
    let sib = P::new(r);
    b.t("{\"name\": \"")
        .l(Kind::Person, &p.last)
        .t(" family\", \"type\": \"private_group\", \"messages\": [\n");
    let stamp = |r: &mut Rng| format!("2026-{:02}-{:02}", r.range(1, 12), r.range(1, 28));
    b.t(" {\"date\": \"")
        .l(Kind::Date, &stamp(r))
        .t(&format!("T{}:00\", \"from\": \"", time(r)))
        .name(r, &sib);
    b.t("\", \"text\": \"dad (")
        .l(Kind::Person, &p.first.to_uppercase())
        .t(") moved to bed ")
        .l(Kind::Room, &room(r))
        .t(" on 6 south\"},\n");
    b.t(" {\"date\": \"")
        .l(Kind::Date, &stamp(r))
        .t(&format!("T{}:00\", \"from\": \"", time(r)))
        .l(Kind::Person, NICK[r.below(NICK.len())]);
    b.t("\", \"text\": \"his insurance # is ")
        .l(Kind::HealthPlan, &plan(r))
        .t(", group 00417, ask for ")
        .t(staff(r))
        .t("\"},\n");
    b.t(" {\"date\": \"")
        .l(Kind::Date, &stamp(r))
        .t(&format!("T{}:00\", \"from\": \"", time(r)))
        .l(Kind::Phone, &phone(r));
    b.t("\", \"text\": \"on my way, parked the truck ")
        .l(Kind::Vehicle, &plate(r))
        .t(" in lot C\"}\n]}\n");
    b
}

type Family = fn(&mut Rng, &P) -> B;
const MAKERS: [Family; 26] = [
    kiosk, willcall, specimen, whiteboard, huddle, dlounge, ambulette, consent, vaxsign, waiver,
    growth, telerx, rpm, pendant, evv, awv, advdir, flowers, lostfound, security, parking,
    comments, ghissue, excel, famchat, langs,
];

pub fn generate(seed: u64, n: usize) -> Set {
    let mut r = Rng(seed);
    let mut docs = Vec::with_capacity(n);
    let mut roster = Vec::new();
    for i in 0..n {
        let f = i % FAMILIES.len();
        let p = P::new(&mut r);
        if i % 3 == 0 {
            roster.push(p.full());
        }
        let b = MAKERS[f](&mut r, &p);
        docs.push(b.done(FAMILIES[f]));
    }
    let mut keep: Vec<String> = STAFF.iter().map(|s| s.to_string()).collect();
    keep.extend(SITES.iter().map(|s| s.to_string()));
    Set { docs, roster, keep }
}
