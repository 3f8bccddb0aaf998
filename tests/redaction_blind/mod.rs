//! A blind evaluation set for the PHI redactor: hospital and clinic messages written without
//! looking at the redactor or its other evaluation sets, so that its figures here measure how
//! it generalises. Every identifier is labelled by the code that inserts it (the text is built
//! by appending pieces and recording their byte offsets), never by searching afterwards.
//!
//! Seeded and reproducible: the same seed gives byte-identical documents.

use opsdesk::governance::redact::Kind;

/// One identifier in a document: byte offsets into `Doc::text`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Label {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

pub struct Doc {
    pub family: &'static str,
    pub text: String,
    pub labels: Vec<Label>,
}

pub struct Set {
    pub docs: Vec<Doc>,
    /// The practice and its staff: never labelled, their mentions must stay.
    pub keep: Vec<String>,
    /// Full names ("First Last") of about a third of the patients.
    pub roster: Vec<String>,
}

/// xorshift64: small, seeded, no crate.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.below((hi - lo + 1) as usize) as u32
    }
    fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())].clone()
    }
    fn chance(&mut self, pct: usize) -> bool {
        self.below(100) < pct
    }
    fn digits(&mut self, n: usize) -> String {
        let mut s = String::new();
        for i in 0..n {
            let d = if i == 0 {
                self.range(1, 9)
            } else {
                self.range(0, 9)
            };
            s.push(char::from(b'0' + d as u8));
        }
        s
    }
    fn letters(&mut self, n: usize) -> String {
        const L: &[u8] = b"ABCDEFGHJKLMNPQRTUVWXY";
        (0..n).map(|_| char::from(self.pick(L))).collect()
    }
}

// ---------------------------------------------------------------------------------------------
// Names. "First|Nick" where a short form is in common use.

struct Origin {
    male: &'static [&'static str],
    female: &'static [&'static str],
    last: &'static [&'static str],
}

const ORIGINS: &[Origin] = &[
    // Nigerian (Yoruba, Igbo)
    Origin {
        male: &[
            "Chidi",
            "Chukwuemeka|Emeka",
            "Oluwaseun|Seun",
            "Babajide|Jide",
            "Ikenna|Ike",
            "Obinna|Obi",
            "Olumide|Mide",
            "Tunde",
        ],
        female: &[
            "Ngozi",
            "Adaeze|Ada",
            "Funmilayo|Funmi",
            "Chiamaka|Amaka",
            "Yewande|Yewa",
            "Folake",
            "Nneka",
        ],
        last: &[
            "Okoye",
            "Adeyemi",
            "Okonkwo",
            "Eze",
            "Balogun",
            "Nwosu",
            "Oyelaran",
            "Adebayo-Cole",
            "Olatunji",
            "Iwuchukwu",
        ],
    },
    // Vietnamese (given name first, as US forms write it)
    Origin {
        male: &["Minh", "Tuấn", "Huy", "Long", "Phúc", "Quang", "Bảo"],
        female: &["Thảo", "Linh", "Hoa", "Ngọc Anh", "Mai", "Lan", "Hương"],
        last: &[
            "Nguyễn", "Trần", "Lê", "Phạm", "Huỳnh", "Võ", "Đặng", "Nguyen", "Tran", "Pham",
        ],
    },
    // Polish
    Origin {
        male: &[
            "Łukasz",
            "Krzysztof|Krzysiek",
            "Wojciech|Wojtek",
            "Grzegorz|Grzesiek",
            "Paweł",
            "Jerzy",
            "Stanisław|Staszek",
        ],
        female: &[
            "Małgorzata|Gosia",
            "Agnieszka|Aga",
            "Katarzyna|Kasia",
            "Zofia|Zosia",
            "Jadwiga|Jadzia",
            "Bożena",
        ],
        last: &[
            "Kowalczyk",
            "Wiśniewski",
            "Wójcik",
            "Szczepański",
            "Zielińska",
            "Grabowska",
            "Dąbrowski",
            "Przybylski",
            "Kaczmarek",
        ],
    },
    // Greek
    Origin {
        male: &[
            "Konstantinos|Kostas",
            "Dimitrios|Dimitri",
            "Georgios|Giorgos",
            "Panagiotis|Panos",
            "Spyridon|Spiros",
            "Evangelos|Vangelis",
        ],
        female: &[
            "Eleni",
            "Athanasia|Soula",
            "Paraskevi|Voula",
            "Vasiliki|Vicky",
            "Chrysoula|Chrysa",
            "Despina",
        ],
        last: &[
            "Papadopoulos",
            "Katsaros",
            "Georgiou",
            "Christodoulou",
            "Papanikolaou",
            "Karagiannis",
            "Oikonomou",
            "Triantafyllou",
        ],
    },
    // Somali
    Origin {
        male: &[
            "Abdirahman|Abdi",
            "Mohamed",
            "Abdullahi",
            "Hassan",
            "Yusuf",
            "Abdiwali",
        ],
        female: &[
            "Hodan", "Ayaan", "Fadumo", "Sahra", "Hibaq", "Ubah", "Ifrah",
        ],
        last: &[
            "Warsame", "Farah", "Abdi", "Hirsi", "Jama", "Osman", "Mohamud", "Egal", "Dualeh",
        ],
    },
    // Haitian
    Origin {
        male: &[
            "Jean-Baptiste",
            "Wilner",
            "Fritznel",
            "Jean-Robert|Bob",
            "Wesner",
            "Dieuseul",
        ],
        female: &[
            "Marie-Claude|Claudie",
            "Nadège",
            "Rose-Mina",
            "Guerline",
            "Mirlande",
            "Fabiola",
            "Marjorie",
        ],
        last: &[
            "Pierre-Louis",
            "Joseph",
            "Désir",
            "Baptiste",
            "Saint-Fleur",
            "Dorcélus",
            "Jean-Charles",
            "Toussaint",
            "Exantus",
        ],
    },
    // Filipino
    Origin {
        male: &[
            "Rodrigo",
            "Bienvenido|Benny",
            "Ferdinand|Ferdie",
            "Reynaldo|Rey",
            "Jun",
            "Arnel",
        ],
        female: &[
            "Maricel|Cel",
            "Rowena",
            "Luzviminda|Luz",
            "Jocelyn|Joy",
            "Marites",
            "Imelda|Mel",
        ],
        last: &[
            "dela Cruz",
            "Bautista",
            "Macaraeg",
            "Dimaculangan",
            "Villanueva",
            "Pangilinan",
            "Magbanua",
            "Manalo",
        ],
    },
    // Indian
    Origin {
        male: &[
            "Venkatesh|Venky",
            "Rajesh|Raju",
            "Siddharth|Sid",
            "Gurpreet",
            "Mahesh",
            "Arjun",
        ],
        female: &[
            "Lakshmi",
            "Anjali",
            "Meenakshi|Meena",
            "Sunita",
            "Kavya",
            "Harpreet",
        ],
        last: &[
            "Subramanian",
            "Venkataraman",
            "Chatterjee",
            "Reddy",
            "Iyer",
            "Bhattacharya",
            "Sandhu",
            "Gill",
            "Krishnamurthy",
        ],
    },
    // Arabic
    Origin {
        male: &[
            "Abdulrahman|Abdul",
            "Khalid",
            "Youssef|Joe",
            "Tariq",
            "Mohammed|Hamoudi",
            "Bilal",
        ],
        female: &["Fatima", "Noor", "Layla", "Rania", "Samira", "Hanan"],
        last: &[
            "al-Hakim",
            "bin Rashid",
            "Al-Masri",
            "Haddad",
            "El-Sayed",
            "Abu-Nasser",
            "Khoury",
            "al-Farsi",
        ],
    },
    // Korean
    Origin {
        male: &["Min-jun", "Seung-ho", "Jae-won", "Dong-hyun", "Sung-min"],
        female: &["Ji-yeon", "Eun-ji", "Seo-yeon", "Hye-jin", "Mi-kyung"],
        last: &["Kim", "Park", "Choi", "Jung", "Yoon", "Hwang", "Baek"],
    },
    // Ukrainian
    Origin {
        male: &[
            "Oleksandr|Sasha",
            "Volodymyr|Volodya",
            "Mykola|Kolya",
            "Bohdan",
            "Taras",
        ],
        female: &[
            "Oksana",
            "Nataliia|Natasha",
            "Halyna|Halya",
            "Iryna",
            "Yuliia|Yulia",
        ],
        last: &[
            "Shevchenko",
            "Kovalenko",
            "Bondarenko",
            "Tkachenko",
            "Melnyk",
            "Hrytsenko",
            "Kravchuk",
        ],
    },
    // Mexican
    Origin {
        male: &[
            "José-María|Chema",
            "Francisco|Pancho",
            "Jesús|Chuy",
            "Eusebio",
            "Refugio|Cuco",
            "Guadalupe|Lupe",
        ],
        female: &[
            "Beatriz|Bea",
            "Guadalupe|Lupita",
            "Xóchitl",
            "Concepción|Conchita",
            "Socorro|Coco",
            "Araceli",
        ],
        last: &[
            "García-López",
            "de la Garza",
            "Hernández",
            "Villaseñor",
            "Ochoa",
            "Zúñiga",
            "de la Cruz",
            "Quiñones",
        ],
    },
    // Samoan
    Origin {
        male: &["Tavita", "Sione", "Iosefa|Sefa", "Mataio", "Faamanu"],
        female: &["Losa", "Malia", "Fetu", "Lagi", "Sina"],
        last: &[
            "Faleolo",
            "Tuiasosopo",
            "Leota",
            "Sapolu",
            "Aumua",
            "Fa'amausili",
            "Tuilagi",
        ],
    },
    // Dutch
    Origin {
        male: &["Joost", "Pieter|Piet", "Maarten", "Sjoerd", "Hendrik|Henk"],
        female: &[
            "Anneke",
            "Marijke",
            "Femke",
            "Liesbeth|Lies",
            "Wilhelmina|Mien",
        ],
        last: &[
            "van der Berg",
            "de Vries",
            "van den Broek",
            "Bakker",
            "van Dijk",
            "ter Haar",
            "Vermeulen",
            "van 't Hof",
        ],
    },
    // A few common US names, some of them English words.
    Origin {
        male: &["James|Jim", "Robert|Bobby", "Dwayne", "Earl", "Rusty"],
        female: &["Patricia|Patty", "Shirley", "Faith", "Joy", "Dolores|Dee"],
        last: &[
            "Johnson",
            "Washington",
            "Hill",
            "Young",
            "Rose",
            "Brown",
            "Little",
        ],
    },
];

#[derive(Clone)]
struct Person {
    first: String,
    middle: Option<String>,
    last: String,
    nick: Option<String>,
    male: bool,
}

fn split_first(s: &str) -> (String, Option<String>) {
    match s.split_once('|') {
        Some((f, n)) => (f.to_string(), Some(n.to_string())),
        None => (s.to_string(), None),
    }
}

fn person(rng: &mut Rng) -> Person {
    let o = &ORIGINS[rng.below(ORIGINS.len())];
    let male = rng.chance(50);
    let firsts = if male { o.male } else { o.female };
    let (first, nick) = split_first(rng.pick(firsts));
    let middle = if rng.chance(35) {
        let (m, _) = split_first(rng.pick(firsts));
        if m == first { None } else { Some(m) }
    } else {
        None
    };
    Person {
        first,
        middle,
        last: rng.pick(o.last).to_string(),
        nick,
        male,
    }
}

/// A relative: same origin family name most of the time.
fn relative_of(rng: &mut Rng, p: &Person) -> Person {
    let mut r = person(rng);
    if rng.chance(70) {
        r.last = p.last.clone();
    }
    r
}

fn caps(s: &str) -> String {
    s.to_uppercase()
}
fn lower(s: &str) -> String {
    s.to_lowercase()
}

/// Strip accents the way scanners, email providers and exports do.
fn fold(s: &str) -> String {
    s.chars()
        .filter_map(|c| {
            let m = match c {
                'á' | 'à' | 'â' | 'ã' | 'ä' | 'ă' | 'ạ' | 'ả' | 'ấ' | 'ầ' | 'ậ' | 'ắ' | 'ặ'
                | 'ą' => 'a',
                'é' | 'è' | 'ê' | 'ë' | 'ễ' | 'ę' | 'ệ' => 'e',
                'í' | 'ì' | 'ï' | 'ị' => 'i',
                'ó' | 'ò' | 'ô' | 'õ' | 'ö' | 'ọ' | 'ơ' | 'ộ' => 'o',
                'ú' | 'ù' | 'ü' | 'ư' | 'ụ' => 'u',
                'ỳ' | 'ý' => 'y',
                'ñ' | 'ń' => 'n',
                'ç' | 'ć' => 'c',
                'ł' => 'l',
                'ś' => 's',
                'ź' | 'ż' => 'z',
                'đ' | 'Đ' => 'd',
                'Ł' => 'L',
                'Ś' => 'S',
                'Ż' => 'Z',
                c if c.is_ascii_alphanumeric() => c,
                _ => return None,
            };
            Some(m)
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Numbers and dates in words.

const ONES: &[&str] = &[
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
const TENS: &[&str] = &[
    "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
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
    "twentieth",
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

fn card(n: u32, hyphen: bool) -> String {
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
    if n <= 20 {
        ORD[n as usize].to_string()
    } else if n == 30 {
        "thirtieth".to_string()
    } else {
        format!("{} {}", TENS[(n / 10) as usize], ORD[(n % 10) as usize])
    }
}

fn suffix(n: u32) -> &'static str {
    match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    }
}

fn two_digit_words(n: u32) -> String {
    if n == 0 {
        "hundred".to_string()
    } else if n < 10 {
        format!("oh {}", ONES[n as usize])
    } else {
        card(n, false)
    }
}

fn year_words(rng: &mut Rng, y: u32) -> String {
    if y >= 2000 {
        if rng.chance(50) {
            format!("two thousand {}", card(y - 2000, false))
        } else {
            format!("twenty {}", two_digit_words(y - 2000))
        }
    } else {
        format!("nineteen {}", two_digit_words(y - 1900))
    }
}

#[derive(Clone, Copy)]
struct Ymd(u32, u32, u32);

fn month(m: u32) -> &'static str {
    MONTHS[(m - 1) as usize]
}
fn mon(m: u32) -> &'static str {
    &MONTHS[(m - 1) as usize][..3]
}

/// A date as clinicians and forms write it, with its year.
fn date_full(rng: &mut Rng, Ymd(y, m, d): Ymd) -> String {
    match rng.below(13) {
        0 => format!("{m:02}/{d:02}/{y}"),
        1 => format!("{m}/{d}/{y}"),
        2 => format!("{m}/{d}/{:02}", y % 100),
        3 => format!("{d} {} {y}", mon(m)),
        4 => format!("{d:02}-{}-{y}", caps(mon(m))),
        5 => format!("{} {d}{}, {y}", month(m), suffix(d)),
        6 => format!("{} {d}, {y}", month(m)),
        7 => format!("{y}-{m:02}-{d:02}"),
        8 => format!("{} {d}, {y}", mon(m)),
        9 => format!("{m:02}-{d:02}-{y}"),
        10 => format!("{}. {d} {y}", mon(m)),
        11 => format!("{d} {} {y}", month(m)),
        _ => format!("{m:02}.{d:02}.{y}"),
    }
}

/// A date without its year (visits, appointments).
fn date_short(rng: &mut Rng, Ymd(_, m, d): Ymd) -> String {
    match rng.below(6) {
        0 => format!("{m}/{d}"),
        1 => format!("{} {d}", month(m)),
        2 => format!("{} {d}{}", mon(m), suffix(d)),
        3 => format!("{d} {}", month(m)),
        4 => format!("{m:02}/{d:02}"),
        _ => format!("{} {d}{}", month(m), suffix(d)),
    }
}

/// Dates as patients type them.
fn date_lower(rng: &mut Rng, Ymd(y, m, d): Ymd) -> String {
    match rng.below(7) {
        0 => format!("{m}/{d}/{:02}", y % 100),
        1 => format!("{} {d} {y}", lower(month(m))),
        2 => format!("{} {d}{}", lower(month(m)), suffix(d)),
        3 => format!("{m}-{d}-{y}"),
        4 => format!("{m}/{d}"),
        5 => format!("{} {d}", lower(mon(m))),
        _ => format!("{m}/{d}/{y}"),
    }
}

/// Dates read aloud (voicemail transcripts).
fn date_spoken(rng: &mut Rng, Ymd(y, m, d): Ymd) -> String {
    let yy = y % 100;
    match rng.below(5) {
        0 => format!(
            "{} {} {}",
            card(m, false),
            card(d, false),
            two_digit_words(yy)
        ),
        1 => format!("{} {} {}", lower(month(m)), ordinal(d), year_words(rng, y)),
        2 => format!(
            "the {} of {} {}",
            ordinal(d),
            lower(month(m)),
            year_words(rng, y)
        ),
        3 => format!(
            "{} {} {}",
            lower(month(m)),
            card(d, false),
            two_digit_words(yy)
        ),
        _ => format!("{} {}", lower(month(m)), ordinal(d)),
    }
}

fn random_date(rng: &mut Rng, from: u32, to: u32) -> Ymd {
    Ymd(rng.range(from, to), rng.range(1, 12), rng.range(1, 28))
}

// ---------------------------------------------------------------------------------------------
// Identifiers.

fn phone_number(rng: &mut Rng) -> [u32; 3] {
    const AREA: &[u32] = &[
        937, 614, 313, 617, 612, 206, 559, 404, 718, 305, 808, 650, 773, 503, 214,
    ];
    [rng.pick(AREA), rng.range(201, 989), rng.range(0, 9999)]
}

fn phone_text(rng: &mut Rng, [a, b, c]: [u32; 3]) -> String {
    match rng.below(7) {
        0 => format!("({a}) {b}-{c:04}"),
        1 => format!("{a}-{b}-{c:04}"),
        2 => format!("{a}.{b}.{c:04}"),
        3 => format!("+1 {a} {b} {c:04}"),
        4 => format!("{a}{b}{c:04}"),
        5 => format!("{a} {b} {c:04}"),
        _ => format!("1-{a}-{b}-{c:04}"),
    }
}

fn phone_spoken(rng: &mut Rng, [a, b, c]: [u32; 3]) -> String {
    let digits = format!("{a}{b}{c:04}");
    let oh = rng.chance(50);
    let words: Vec<&str> = digits
        .bytes()
        .map(|d| {
            if d == b'0' && oh {
                "oh"
            } else {
                ONES[(d - b'0') as usize]
            }
        })
        .collect();
    let sep = if rng.chance(50) { ", " } else { " " };
    format!(
        "{}{sep}{}{sep}{}",
        words[..3].join(" "),
        words[3..6].join(" "),
        words[6..].join(" ")
    )
}

fn ssn(rng: &mut Rng) -> String {
    let a = rng.range(101, 665);
    let b = rng.range(10, 99);
    let c = rng.range(1000, 9999);
    match rng.below(3) {
        0 | 1 => format!("{a}-{b}-{c}"),
        _ => format!("{a} {b} {c}"),
    }
}

fn health_plan(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => format!("{}{}", rng.letters(3), rng.digits(9)),
        1 => format!(
            "{}{}{}-{}{}{}-{}{}{}{}",
            rng.range(1, 9),
            rng.letters(1),
            rng.letters(1),
            rng.range(1, 9),
            rng.letters(1),
            rng.range(1, 9),
            rng.letters(1),
            rng.letters(1),
            rng.range(1, 9),
            rng.range(1, 9)
        ),
        2 => format!("W{}", rng.digits(9)),
        3 => format!("{}{}", rng.digits(8), rng.letters(1)),
        4 => format!("{}-{}", rng.letters(2), rng.digits(7)),
        _ => format!("ZGP{}{:02}", rng.digits(7), rng.range(1, 9)),
    }
}

fn account(rng: &mut Rng) -> String {
    match rng.below(4) {
        0 => rng.digits(8),
        1 => format!("{}-{}", rng.digits(4), rng.digits(6)),
        2 => format!("A{}", rng.digits(9)),
        _ => rng.digits(10),
    }
}

fn claim(rng: &mut Rng) -> String {
    match rng.below(3) {
        0 => format!("CLM{}", rng.digits(9)),
        1 => format!("{}-{}-{:02}", rng.digits(4), rng.digits(6), rng.range(1, 9)),
        _ => format!("{}{}", rng.letters(2), rng.digits(11)),
    }
}

fn mrn(rng: &mut Rng) -> String {
    match rng.below(4) {
        0 => rng.digits(7),
        1 => format!("00{}", rng.digits(6)),
        2 => rng.digits(8),
        _ => format!("{}-{}", rng.digits(3), rng.digits(4)),
    }
}

fn device(rng: &mut Rng) -> String {
    match rng.below(5) {
        0 => format!("PJN{}S", rng.digits(6)),
        1 => format!("{}R-{}-{}", rng.range(1, 9), rng.digits(5), rng.letters(1)),
        2 => format!("SN{}{}", rng.letters(2), rng.digits(7)),
        3 => format!("{}{}{}", rng.range(1, 9), rng.letters(3), rng.digits(2)),
        _ => format!("RNL{}", rng.digits(6)),
    }
}

const STREETS: &[&str] = &[
    "Oak Hollow",
    "Linden",
    "Kościuszko",
    "Martin Luther King Jr",
    "Cedar Crest",
    "Pulaski",
    "Harbor View",
    "Riverside",
    "Calle del Sol",
    "Eastwood",
    "Wilshire",
    "Toussaint Louverture",
    "Magnolia",
    "Fenwick",
    "3rd",
    "Old Mill",
];
const SUFFIXES: &[&str] = &[
    "Rd", "St", "Ave", "Blvd", "Dr", "Ln", "Court", "Street", "Way", "Pkwy", "Road",
];
const CITIES: &[(&str, &str)] = &[
    ("Dayton", "OH"),
    ("Hamtramck", "MI"),
    ("Lowell", "MA"),
    ("Minneapolis", "MN"),
    ("Daly City", "CA"),
    ("Brockton", "MA"),
    ("Dearborn", "MI"),
    ("Fresno", "CA"),
    ("Tukwila", "WA"),
    ("Carson", "CA"),
    ("Columbus", "OH"),
    ("Chicago", "IL"),
    ("Hilo", "HI"),
];

fn street(rng: &mut Rng) -> String {
    let n = rng.range(2, 9870);
    let s = rng.pick(STREETS);
    let suf = rng.pick(SUFFIXES);
    let unit = match rng.below(6) {
        0 => format!(" Apt {}{}", rng.range(1, 40), rng.letters(1)),
        1 => format!(", Unit {}", rng.range(1, 300)),
        2 => format!(" #{}", rng.range(1, 30)),
        _ => String::new(),
    };
    let dir = if rng.chance(20) {
        rng.pick(&["N ", "S ", "E ", "W "])
    } else {
        ""
    };
    format!("{n} {dir}{s} {suf}{unit}")
}

fn zip(rng: &mut Rng) -> String {
    let z = rng.range(10000, 99950);
    if rng.chance(20) {
        format!("{z}-{}", rng.range(1000, 9999))
    } else {
        z.to_string()
    }
}

fn email_of(rng: &mut Rng, p: &Person) -> String {
    let f = lower(&fold(&p.first));
    let l = lower(&fold(&p.last));
    let dom = rng.pick(&[
        "gmail.com",
        "yahoo.com",
        "hotmail.com",
        "outlook.com",
        "aol.com",
        "icloud.com",
        "comcast.net",
    ]);
    let n = rng.range(1, 99);
    let local = match rng.below(6) {
        0 => format!("{f}.{l}"),
        1 => format!("{f}.{l}{n}"),
        2 => format!("{}{l}", &f[..1]),
        3 => format!("{l}.{f}"),
        4 => format!("{f}_{l}{}", rng.range(1940, 2005)),
        _ => format!("{f}{n}"),
    };
    format!("{local}@{dom}")
}

// ---------------------------------------------------------------------------------------------
// Text that must stay.

const DRUGS: &[&str] = &[
    "apixaban",
    "Eliquis",
    "Jardiance",
    "metoprolol",
    "metformin",
    "Xarelto",
    "lisinopril",
    "Ozempic",
    "furosemide",
    "atorvastatin",
    "Entresto",
    "Keppra",
    "levothyroxine",
    "Farxiga",
    "gabapentin",
    "amlodipine",
    "Lasix",
    "warfarin",
    "Trulicity",
    "sertraline",
];
const CLINICAL: &[&str] = &[
    "afib with RVR",
    "CHF exacerbation",
    "COPD",
    "type 2 diabetes",
    "CKD stage 3",
    "tachycardic",
    "hyponatremia",
    "community-acquired pneumonia",
    "cellulitis of the left leg",
    "syncope",
    "a UTI",
    "hypertension",
    "DVT",
    "delirium",
    "GI bleed",
];
const EPONYMS: &[&str] = &[
    "Parkinson's disease",
    "Crohn's disease",
    "Hashimoto's thyroiditis",
    "Bell's palsy",
    "Alzheimer's dementia",
    "Graves' disease",
    "Barrett's esophagus",
    "Guillain-Barré syndrome",
    "Addison's disease",
    "Sjögren's syndrome",
    "Meniere's disease",
    "Cushing's syndrome",
    "Raynaud's phenomenon",
    "Hodgkin lymphoma",
];
const EQUIPMENT: &[&str] = &[
    "a Foley catheter",
    "a Swan-Ganz catheter",
    "a Jackson-Pratt drain",
    "a Hickman line",
    "a Groshong catheter",
    "a Pleur-x catheter",
];
const LABS: &[&str] = &[
    "HbA1c 8.4%",
    "K 3.1",
    "Na 128",
    "troponin <0.01",
    "BNP 1240",
    "creatinine 1.9",
    "INR 3.2",
    "WBC 14.2",
    "Hgb 7.8",
    "TSH 0.02",
    "eGFR 41",
    "LDL 162",
];
const WEEKDAYS: &[&str] = &[
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];
const DEADLINES: &[&str] = &[
    "by Friday EOD",
    "next Tuesday",
    "tomorrow morning",
    "in two weeks",
    "within 7 days",
    "by end of day Monday",
    "in 3 months",
    "this Thursday",
];
const DEPTS: &[&str] = &[
    "Cardiology",
    "the ED",
    "Interventional Radiology",
    "4 West",
    "the MICU",
    "Endocrinology",
    "Physical Therapy",
    "Nephrology",
    "Wound Care",
    "the Cath Lab",
    "Oncology",
    "Labor and Delivery",
];
const INSURERS: &[&str] = &[
    "Aetna",
    "Medicare",
    "Medicaid",
    "Blue Cross Blue Shield",
    "UnitedHealthcare",
    "Humana",
    "Cigna",
    "Kaiser Permanente",
    "Molina",
    "Tricare",
];
const STATES: &[&str] = &[
    "Ohio",
    "Michigan",
    "California",
    "Minnesota",
    "Washington",
    "Hawaii",
    "Illinois",
    "Massachusetts",
];
const PRODUCTS: &[&str] = &[
    "Epic", "MyChart", "Zoom", "Teams", "Doximity", "Cerner", "Dexcom", "Teladoc",
];
const TIMES: &[&str] = &[
    "0700", "7:30am", "9:15", "10:45 AM", "1pm", "2:30", "3:30 PM", "1900", "0300", "noon",
];

// ---------------------------------------------------------------------------------------------
// The practice itself: never labelled.

const CLINIC: &str = "Riverbend Family Health";
const STAFF_DOC: (&str, &str) = ("Anneliese", "Brandt");
const STAFF_RN: (&str, &str) = ("Kwame", "Asante");
const STAFF_NP: (&str, &str) = ("Rosalind", "Ferreira");

fn keep_list() -> Vec<String> {
    vec![
        CLINIC.to_string(),
        format!("{} {}", STAFF_DOC.0, STAFF_DOC.1),
        format!("{} {}", STAFF_RN.0, STAFF_RN.1),
        format!("{} {}", STAFF_NP.0, STAFF_NP.1),
    ]
}

// ---------------------------------------------------------------------------------------------
// Building a document.

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
    fn t(&mut self, s: &str) {
        self.text.push_str(s);
    }
    fn l(&mut self, kind: Kind, s: &str) {
        assert!(!s.trim().is_empty(), "empty label");
        let start = self.text.len();
        self.text.push_str(s);
        self.labels.push(Label {
            kind,
            start,
            end: self.text.len(),
        });
    }
}

/// One document's cast and identifiers, so a document stays consistent with itself.
struct Ctx {
    p: Person,
    r: Person,
    o: Person,
    q: Person,
    dob: Ymd,
    mrn: String,
    phone: [u32; 3],
    fax: [u32; 3],
    plan: String,
    acct: String,
    claim: String,
    ssn: String,
    street: String,
    city: (&'static str, &'static str),
    zip: String,
    device: String,
    room: String,
    age: u32,
    /// Which relation words this document uses, so they agree with themselves.
    rel: usize,
}

impl Ctx {
    fn new(rng: &mut Rng, p: Person, q: Person) -> Ctx {
        let r = relative_of(rng, &p);
        let o = person(rng);
        let room = match rng.below(3) {
            0 => format!("{}{}", rng.range(2, 9), rng.range(10, 40)),
            1 => format!(
                "{}{}-{}",
                rng.range(2, 9),
                rng.range(10, 40),
                rng.pick(&["A", "B"])
            ),
            _ => format!(
                "{}{}{}",
                rng.range(2, 9),
                rng.range(10, 40),
                rng.pick(&["A", "B"])
            ),
        };
        Ctx {
            p,
            r,
            o,
            q,
            dob: random_date(rng, 1926, 2008),
            mrn: mrn(rng),
            phone: phone_number(rng),
            fax: phone_number(rng),
            plan: health_plan(rng),
            acct: account(rng),
            claim: claim(rng),
            ssn: ssn(rng),
            street: street(rng),
            city: rng.pick(CITIES),
            zip: zip(rng),
            device: device(rng),
            room,
            age: rng.range(90, 104),
            rel: rng.below(3),
        }
    }

    fn who(&self, c: char) -> &Person {
        match c {
            'p' => &self.p,
            'r' => &self.r,
            'o' => &self.o,
            _ => &self.q,
        }
    }

    /// Appends a template: literal text, and `{key}` placeholders filled and labelled.
    fn fill(&self, rng: &mut Rng, b: &mut B, tpl: &str) {
        let mut rest = tpl;
        while let Some(i) = rest.find('{') {
            b.t(&rest[..i]);
            let j = rest[i..].find('}').expect("closed placeholder") + i;
            self.emit(rng, b, &rest[i + 1..j]);
            rest = &rest[j + 1..];
        }
        b.t(rest);
    }

    fn emit(&self, rng: &mut Rng, b: &mut B, key: &str) {
        use Kind::*;
        if let Some((w, form)) = key.split_once('.')
            && w.len() == 1
        {
            let c = w.chars().next().expect("one char");
            if c == 's' {
                self.staff(rng, b, form);
            } else {
                let who = self.who(c).clone();
                person_form(rng, b, &who, form);
            }
            return;
        }
        let male = self.p.male;
        match key {
            "dob" => b.l(Date, &date_full(rng, self.dob)),
            "dobl" => b.l(Date, &date_lower(rng, self.dob)),
            "dobsp" => b.l(Date, &date_spoken(rng, self.dob)),
            "date" => {
                let d = random_date(rng, 2023, 2025);
                let s = if rng.chance(50) {
                    date_full(rng, d)
                } else {
                    date_short(rng, d)
                };
                b.l(Date, &s)
            }
            "datel" => {
                let d = random_date(rng, 2023, 2025);
                b.l(Date, &date_lower(rng, d))
            }
            "datesp" => {
                let d = random_date(rng, 2023, 2025);
                b.l(Date, &date_spoken(rng, d))
            }
            "age" => b.l(Age, &self.age.to_string()),
            "agew" => b.l(Age, &card(self.age.min(99), rng.chance(50))),
            "okage" => b.t(&rng.range(19, 88).to_string()),
            "phone" => b.l(Phone, &phone_text(rng, self.phone)),
            "phonesp" => b.l(Phone, &phone_spoken(rng, self.phone)),
            "fax" => b.l(Fax, &phone_text(rng, self.fax)),
            "ssn" => b.l(Ssn, &self.ssn),
            "mrn" => b.l(Mrn, &self.mrn),
            "plan" => b.l(HealthPlan, &self.plan),
            "acct" => b.l(Account, &self.acct),
            "claim" => b.l(Account, &self.claim),
            "addr" => b.l(Address, &self.street),
            "addrl" => b.l(Address, &lower(&self.street)),
            "city" => b.l(Address, self.city.0),
            "cityl" => b.l(Address, &lower(self.city.0)),
            "st" => b.t(self.city.1),
            "zip" => b.l(Zip, &self.zip),
            "dev" => b.l(Device, &self.device),
            "room" => b.l(Room, &self.room),
            "ip" => {
                let ip = format!(
                    "{}.{}.{}.{}",
                    rng.pick(&[73u32, 24, 98, 172, 108, 67, 71]),
                    rng.range(1, 254),
                    rng.range(0, 254),
                    rng.range(1, 254)
                );
                b.l(Ip, &ip)
            }
            "url" => {
                let f = lower(&fold(&self.p.first));
                let l = lower(&fold(&self.p.last));
                let u = match rng.below(5) {
                    0 => format!("https://www.facebook.com/{f}.{l}.{}", rng.range(1, 99)),
                    1 => format!(
                        "https://gofund.me/{}{}",
                        rng.letters(2).to_lowercase(),
                        rng.digits(6)
                    ),
                    2 => format!(
                        "https://photos.app.goo.gl/{}{}",
                        rng.letters(6),
                        rng.digits(4)
                    ),
                    3 => format!("https://www.caringbridge.org/visit/{f}{l}"),
                    _ => format!("http://imgur.com/a/{}{}", rng.letters(4), rng.digits(3)),
                };
                b.l(Url, &u)
            }
            // text that stays
            "drug" => b.t(rng.pick(DRUGS)),
            "drugl" => b.t(&lower(rng.pick(DRUGS))),
            "clin" => b.t(rng.pick(CLINICAL)),
            "epon" => b.t(rng.pick(EPONYMS)),
            "eqp" => b.t(rng.pick(EQUIPMENT)),
            "lab" => b.t(rng.pick(LABS)),
            "wday" => b.t(rng.pick(WEEKDAYS)),
            "dl" => b.t(rng.pick(DEADLINES)),
            "dept" => b.t(rng.pick(DEPTS)),
            "ins" => b.t(rng.pick(INSURERS)),
            "insl" => b.t(&lower(rng.pick(INSURERS))),
            "state" => b.t(rng.pick(STATES)),
            "prod" => b.t(rng.pick(PRODUCTS)),
            "time" => b.t(rng.pick(TIMES)),
            "clinic" => b.t(CLINIC),
            "clinicl" => b.t(&lower(CLINIC)),
            "sex" => b.t(if male { "male" } else { "female" }),
            "man" => b.t(if male { "man" } else { "woman" }),
            "sx" => b.t(if male { "M" } else { "F" }),
            "he" => b.t(if male { "he" } else { "she" }),
            "He" => b.t(if male { "He" } else { "She" }),
            "his" => b.t(if male { "his" } else { "her" }),
            "His" => b.t(if male { "His" } else { "Her" }),
            "him" => b.t(if male { "him" } else { "her" }),
            // r's relation to p ("her daughter")
            "rel" => b.t(match (self.r.male, self.rel) {
                (true, 0) => "son",
                (true, 1) => "husband",
                (true, _) => "nephew",
                (false, 0) => "daughter",
                (false, 1) => "wife",
                (false, _) => "niece",
            }),
            // p's relation to r, as the caller says it ("my dad")
            "prel" => b.t(match (male, self.rel) {
                (true, 0) => "dad",
                (true, 1) => "father",
                (true, _) => "grandpa",
                (false, 0) => "mom",
                (false, 1) => "mother",
                (false, _) => "grandma",
            }),
            _ => panic!("unknown placeholder {key}"),
        }
    }

    /// Staff of the practice: in the keep list, never labelled.
    fn staff(&self, rng: &mut Rng, b: &mut B, form: &str) {
        let s = match form {
            "doc" => match rng.below(4) {
                0 => format!("Dr. {}", STAFF_DOC.1),
                1 => format!("Dr {}", STAFF_DOC.1),
                2 => format!("Dr. {} {}", STAFF_DOC.0, STAFF_DOC.1),
                _ => format!("{} {}, MD", STAFF_DOC.0, STAFF_DOC.1),
            },
            "docl" => format!("dr {}", lower(STAFF_DOC.1)),
            "rn" => {
                if rng.chance(60) {
                    STAFF_RN.0.to_string()
                } else {
                    format!("{} {}, RN", STAFF_RN.0, STAFF_RN.1)
                }
            }
            "rnf" => STAFF_RN.0.to_string(),
            "rnl" => format!("nurse {}", lower(STAFF_RN.0)),
            "np" => {
                if rng.chance(50) {
                    STAFF_NP.0.to_string()
                } else {
                    format!("{} {}, NP", STAFF_NP.0, STAFF_NP.1)
                }
            }
            "npf" => STAFF_NP.0.to_string(),
            "docf" => STAFF_DOC.0.to_string(),
            "sig" => match rng.below(3) {
                0 => format!("{} {}, MD", STAFF_DOC.0, STAFF_DOC.1),
                1 => format!("{} {}, DNP, FNP-C", STAFF_NP.0, STAFF_NP.1),
                _ => format!("{} {} MD", caps(STAFF_DOC.0), caps(STAFF_DOC.1)),
            },
            _ => panic!("unknown staff form {form}"),
        };
        b.t(&s);
    }
}

/// A person's name in one written form; titles stay outside the label.
fn person_form(rng: &mut Rng, b: &mut B, p: &Person, form: &str) {
    use Kind::Person as P;
    let full = format!("{} {}", p.first, p.last);
    let nick = p.nick.clone().unwrap_or_else(|| p.first.clone());
    match form {
        "f" => b.l(P, &p.first),
        "l" => b.l(P, &p.last),
        "full" => b.l(P, &full),
        "fml" => match &p.middle {
            Some(m) => b.l(P, &format!("{} {m} {}", p.first, p.last)),
            None => b.l(P, &full),
        },
        "F" => b.l(P, &caps(&p.first)),
        "L" => b.l(P, &caps(&p.last)),
        "FULL" => b.l(P, &caps(&full)),
        "fl" => b.l(P, &lower(&p.first)),
        "ll" => b.l(P, &lower(&p.last)),
        "fulll" => b.l(P, &lower(&full)),
        "nick" => b.l(P, &nick),
        "nickl" => b.l(P, &lower(&nick)),
        // Punctuation between name parts stays outside the labels: a name is found when its
        // words are covered, whatever a redactor does with the comma or the initial's dot.
        "l1" => {
            let c = p.last.chars().find(|c| c.is_uppercase()).unwrap_or('X');
            b.l(P, &c.to_string());
            b.t(".");
        }
        "mr" => {
            let t = if p.male {
                rng.pick(&["Mr. ", "Mr ", "Mr. "])
            } else {
                rng.pick(&["Mrs. ", "Ms. ", "Mrs ", "Ms "])
            };
            b.t(t);
            b.l(P, &p.last);
        }
        "init" => {
            let c = p.first.chars().next().expect("first name");
            b.l(P, &c.to_string());
            b.t(". ");
            b.l(P, &p.last);
        }
        "rev" => {
            b.l(P, &p.last);
            b.t(", ");
            b.l(P, &p.first);
        }
        "REV" => reversed_caps(b, p),
        "any" => {
            let f = rng.pick(&["full", "f", "mr", "init", "nick", "fml"]);
            person_form(rng, b, p, f)
        }
        "anyl" => {
            let f = rng.pick(&["fulll", "fl", "nickl"]);
            person_form(rng, b, p, f)
        }
        "email" => b.l(Kind::Email, &email_of(rng, p)),
        "he" => b.t(if p.male { "he" } else { "she" }),
        "his" => b.t(if p.male { "his" } else { "her" }),
        "him" => b.t(if p.male { "him" } else { "her" }),
        _ => panic!("unknown person form {form}"),
    }
}

/// "LAST, FIRST M." as registries print it: the name's words labelled, not the comma or dot.
fn reversed_caps(b: &mut B, p: &Person) {
    b.l(Kind::Person, &caps(&p.last));
    b.t(", ");
    match &p.middle {
        Some(m) => {
            let i = m.chars().next().expect("middle");
            b.l(Kind::Person, &caps(&format!("{} {i}", p.first)));
            b.t(".");
        }
        None => b.l(Kind::Person, &caps(&p.first)),
    }
}

// ---------------------------------------------------------------------------------------------
// Families built from sentence pools: one sentence from each pool, in order.

const DISCHARGE: &[&[&str]] = &[
    &[
        "DISCHARGE SUMMARY\nPatient: {p.REV}    MRN: {mrn}    DOB: {dob}\nAdmitted: {date}    Discharged: {date}\nAttending: {s.doc}, {dept}\n\n",
        "Discharge Summary - {clinic}\nName: {p.fml}\nMedical record number {mrn}\nDate of birth {dob}\nAdmission date: {date}\n\n",
        "Pt: {p.FULL} | MR# {mrn} | DOB {dob} | Adm {date} | Disch {date}\n\n",
        "DISCHARGE NOTE for {p.full} ({mrn}), born {dob}, seen on {dept} under {s.doc}.\n\n",
        "Patient Name: {p.rev}\nMRN: {mrn}\nD.O.B.: {dob}\nDate of Service: {date}\n\n",
    ],
    &[
        "HPI: {p.mr} is a {age}-year-old {sex} with a history of {clin} and {epon} who presented with {clin}. ",
        "This is a {okage} y/o {sex} with {clin}, on {drug}, admitted from {dept} after a fall at home. ",
        "{p.f} is a pleasant {okage}-year-old {man} with {epon}, admitted on {date} for {clin}. ",
        "Patient is a {age} yo {sex} who lives at {addr}, {city}, {st}, brought in by {his} {rel} {r.full} for {clin}. ",
        "HPI: {age}{sx} w/ {clin}, s/p {eqp}, presenting with worsening dyspnea x3 days. ",
        "{p.mr}, a {okage} year old {man} followed by {s.doc} for {epon}, came in on {wday} with {clin}. ",
    ],
    &[
        "Hospital course: started on {drug} and {drug}; {he} remained {clin} overnight and was rate controlled by {wday}. ",
        "{He} was evaluated by {dept} and {epon} was ruled out; Glasgow Coma Scale 15 throughout. ",
        "Telemetry showed {clin}. {p.mr} tolerated a diet and ambulated with PT on day 2. ",
        "Course complicated by {clin}; {lab}. Discussed with {his} {rel}, {r.any}, at bedside. ",
        "Seen by {s.np} from our {dept} team. {He} was transitioned from heparin to {drug}. ",
        "{p.f} had {eqp} placed on {date}, removed prior to discharge. {lab} on the day of discharge. ",
        "Pacemaker (serial {dev}) interrogated by {dept}: no events. ",
        "LVAD controller S/N {dev} checked by {dept}; alarms reviewed. ",
    ],
    &[
        "Discharge medications: {drug} 5 mg BID, {drug} 25 mg daily, {drug} as needed. ",
        "Meds: continue {drug}; STOP {drug}; new {drug} 10 mg daily. ",
        "Medication changes reviewed with {p.f} and {his} {rel} {r.f}. ",
    ],
    &[
        "Follow up with {s.doc} at {clinic} {dl}. Call {phone} with questions. ",
        "Follow-up: {dept} clinic on {date} at {time}. {His} {rel} {r.full} ({phone}) will drive. ",
        "Home health referral faxed to {fax}. Discharged home to {addr}, {city}, {st} {zip}. ",
        "Return precautions reviewed with patient and {rel}. Next appointment {date}; labs {dl}. ",
        "Disposition: SNF (Maple Grove), report called to {o.full}, RN, at {phone}. ",
    ],
    &[
        "\n\nElectronically signed by {s.sig} on {date}.\n",
        "\n\n-- {s.doc}, {dept}\n",
        "\n\nDictated by {o.full}, MD (resident); cosigned by {s.doc}.\n",
        "\n\ncc: {o.init}, MD (PCP), fax {fax}\n",
    ],
];

const HANDOFF: &[&[&str]] = &[
    &[
        "Shift handoff {time} - {dept}\n",
        "SBAR night -> day, {wday}\n",
        "handoff from {s.rn}:\n",
        "RN report {date} 1900\n",
    ],
    &[
        "Rm {room}: {p.f} {p.L}, {age} y/o, {clin}. On {drug} drip. {His} {rel} {r.f} at bedside, wants a call at {phone} if anything changes. ",
        "Bed {room} - {p.mr}, {okage}, afib w RVR overnight, HR 130s, given metoprolol 5 IV x2. ",
        "{room} {p.FULL} (MRN {mrn}) NPO after midnight for {dept}. GCS 15, A&Ox4. ",
        "{p.nick} in {room} is a high fall risk, bed alarm on, sundowning, keeps asking for {his} {rel} {r.f}. ",
        "Pt {p.init} in {room}: {lab}, K replaced x2. {eqp} in place, Foley d/c'd at 0600, needs to void by {time}. ",
        "{room}: {age}yo {sx} {p.l}, {epon}, {clin}. Tele on. ",
        "{p.f} ({room}) - {age} years old, confused overnight, sitter at bedside. ",
    ],
    &[
        "Family ({r.full}, {rel}) asked about discharge {dl}; told them {s.doc} rounds at 0900. ",
        "Insulin sliding scale, {lab}; watch {p.f}'s sugars at {time}. ",
        "Pacemaker interrogated, device serial {dev}, no events. ",
        "Code status: full code, confirmed with {p.mr} and {his} {rel} {r.f} {r.l}. ",
        "{He} refused the {time} {drug}, said {he} wants to talk to {s.np} first. ",
        "PICC placed by IR today, {epon} noted on H&P. ",
        "Insulin pump (SN {dev}) site changed at {time}, {lab}. ",
    ],
    &[
        "Also {room2}: {q.f} {q.l} is DNR/DNI, comfort care, {q.his} son {o.f} is the POA.",
        "Also covering {q.mr} in {room2} - {clin}, stable, {drug} at 2100.",
        "Nothing else, quiet night. {s.rn} has the pager.",
        "Pending: CT head read, {dept} consult {dl}.",
    ],
];

const PORTAL: &[&[&str]] = &[
    &[
        "hi {s.docl} its {p.fulll} ",
        "Hello, this is {p.full}. ",
        "hey its {p.fl} again lol ",
        "dear doctor i am writing for my {prel} {p.full} ",
        "Good morning {s.docl}, ",
        "hi this is {p.fulll} dob {dobl} ",
        "To whom it may concern my name is {p.fml} ",
    ],
    &[
        "i ran out of my {drugl} can u send to the cvs on {addrl} ",
        "my {rel} {r.f} said i should message about the swelling in my legs since starting {drug} is that normal?? ",
        "the mychart wont let me see my {lab} results... my member id is {plan} if that helps ",
        "{he} is {age} and cant walk to the clinic anymore can someone come to the house at {addr} {city} ",
        "i need a note for work saying i was seen on {datel}. ",
        "my new adress is {addr} {city} {st} {zip} please update ",
        "the nurse {s.rnl} told me to check my bp twice a day its been 150/95 all week ",
        "can i get the covid booster at my appt {wday}? ",
        "my sons name is {r.fulll} hes {okage} he is on my insurance plan {plan} can he be seen by {s.docl} too ",
        "question about my bill account {acct} i paid already on {datel} ",
        "i think i have a uti again same as last time my chart number is {mrn} ",
        "here is the picture of the rash {url} ",
        "my doctor in {state} was dr {o.ll} and she had me on {drugl} ",
        "my ssn is {ssn} the front desk said they need it for the insurance ",
        "can u fax my records to {fax} thats my new cardiologist ",
        "my daughter made a page for updates {url} ",
        "i uploaded the photo of my foot here {url} the wound is getting bigger ",
        "my insulin pump serial is {dev} the company needs a new order ",
    ],
    &[
        "pls call me back {phone} after 5pm i work days. - {p.fl}",
        "thank u so much",
        "Thanks, {p.nick}",
        "my email is {p.email}",
        "sorry for the long message\n{p.fulll}",
        "god bless",
        "- {r.f} ({p.fl}'s {rel})",
        "best number is {phone}",
    ],
];

const VOICEMAIL: &[&[&str]] = &[
    &[
        "voicemail {time}: ",
        "[transcribed voicemail, {wday}] ",
        "vm from {phone} - ",
        "",
    ],
    &[
        "hi this is {r.fulll} calling for my {prel} {p.fulll} um {his} date of birth is {dobsp} ",
        "hey it's {p.fl} {p.ll} returning a call from {s.rnl} about my lab results my birthday is {dobsp} ",
        "yes hello this message is for doctor brandt this is {o.fulll} from {insl} calling about {p.fulll} member number {plan} ",
        "hi good morning this is {r.fl} the {rel} of {p.fl} {p.ll} um {he}'s {agew} and {he} fell last night we're at the emergency room ",
        "hello this is {p.mr} {p.f} you know i'm the one with the {epon} um ",
        "hi um my name is {p.fulll} f-{p.fl} i have an appointment on {datesp} and i need to reschedule ",
        "hi it's {r.fl} {r.ll} i'm calling about my {prel} {p.fl} {he}'s {agew} years old and {he} can't remember if she took the {drugl} ",
        "this is {o.fl} from {dept} at saint vincent calling about your patient {p.fulll} date of birth {dobsp} ",
    ],
    &[
        "{he}'s been really dizzy since they started the {drugl} ",
        "the pharmacy said they never got the prescription for the {drugl} ",
        "i got a letter about a claim {claim} and i don't understand it ",
        "we moved so the new address is {addrl} ",
        "{he}'s been confused since {wday} and not eating ",
        "the insurance is {insl} the id is {plan} ",
        "",
    ],
    &[
        "can someone call me back at {phonesp} thanks bye",
        "you can reach me at {phone} okay bye",
        "my number is {phonesp} again {phonesp} thank you",
        "call me back please thank you",
        "or just call my {rel} {r.fl} at {phonesp} bye bye",
    ],
];

const LAB: &[&[&str]] = &[
    &[
        "Lab Result Notification\nPatient: {p.full}\nDOB: {dob}\nMRN: {mrn}\nCollected: {date} {time}\nOrdering provider: {s.doc}\n\n",
        "Dear {p.mr},\n\nYour results from {date} are now available in {prod}. ",
        "CRITICAL VALUE: {lab} for {p.REV} (MRN {mrn}) called to {s.rn} at {time} on {date}, read back verified. ",
        "{p.f}, ",
        "RESULT: {p.L}, {p.F} | {dob} | {mrn}\n",
        "Hi {p.f} {p.l}, this is {s.np} from {clinic}. ",
    ],
    &[
        "Your {lab} and your LDL was 88. ",
        "Your INR today was 3.4 on {drug}. Please hold tonight's dose and recheck {dl}. ",
        "Hemoglobin A1c 6.9% - improved since {date}. ",
        "The thyroid panel is consistent with {epon}. ",
        "Urine culture grew E. coli, sensitive to nitrofurantoin; script sent. ",
        "Specimen received {date}; {lab}. ",
        "Readings uploaded from glucose meter {dev} since {date}. ",
    ],
    &[
        "{s.doc} reviewed them and has no concerns.",
        "Please call {phone} if you have questions.",
        "A copy was sent to {o.init}, MD at fax {fax}.",
        "We will recheck at your visit on {date}.",
        "Results were also sent to your email on file ({p.email}).",
    ],
];

const PHARMACY: &[&[&str]] = &[
    &[
        "Refill request from Walgreens #4417 for {p.full} (DOB {dob}): ",
        "RX RENEWAL - Pt {p.REV}  DOB {dob}  Ph {phone}  ",
        "Pt {p.mr} called requesting a refill; says {he} has 3 pills left. ",
        "Prior auth needed for {p.full}, member {plan}, {ins}. ",
        "Refill req: {p.L}, {p.F} {dob} ",
        "Message from CVS pharmacist {o.full} re: {p.fml}, DOB {dob}. ",
    ],
    &[
        "{drug} 10 mg, qty 90, last filled {date}. ",
        "Med: {drug} 1000mg BID. Ins: {ins} ID {plan}. ",
        "Requesting 90-day supply of {drug} and {drug}. ",
        "Interaction flag: {drug} + {drug}. ",
        "Rx #{rxno}, {drug} 40 mg daily. ",
    ],
    &[
        "Prescriber: {s.doc}. Pharmacy fax {fax}.",
        "Please send to the CVS at {addr}, {city} {zip} {dl}.",
        "Fax PA form to {fax} attn {o.f}.",
        "Pt can be reached at {phone}.",
        "Approved by {s.np}; sent electronically via {prod}.",
        "{His} {rel} {r.full} will pick up.",
    ],
];

const BILLING: &[&[&str]] = &[
    &[
        "{clinic}\nStatement Date: {date}\n\n{p.FULL}\n{addr}\n{city}, {st} {zip}\n\nAccount Number: {acct}\n",
        "RE: Claim {claim} / Patient {p.full} / DOB {dob} / Policy {plan}\n\n",
        "Explanation of Benefits\nMember: {p.REV}    Member ID: {plan}\nClaim #: {claim}\n\n",
        "{ins}\nP.O. Box 14079\n\n{p.fml}\n{addr}\n{city}, {st} {zip}\n\n",
        "Billing note - acct {acct} - guarantor {r.full}\n",
    ],
    &[
        "Dear {p.full},\n\nOur records show a balance for services on {date}. ",
        "Dear {p.mr},\n\n{ins} denied this claim for lack of prior authorization. ",
        "Your claim {claim} was processed by {ins} under member ID {plan}. ",
        "Guarantor {r.full} ({rel}) called to set up a payment plan; SSN on file {ssn}. ",
        "The Medicare Beneficiary Identifier for {p.full} is {plan}. ",
        "Patient {p.f} {p.l} (acct {acct}) disputes the charge for the visit on {date}. ",
    ],
    &[
        "To update your records please call {phone}.",
        "Please remit payment by {date} or call us to set up a payment plan.",
        "Social Security Number: {ssn} (please verify).",
        "Questions? Our billing office is open Monday through Friday.",
        "\n\nSincerely,\n{o.full}\nPatient Financial Services",
        "We have sent this to collections on {date}; account {acct}.",
    ],
];

const SCHEDULING: &[&[&str]] = &[
    &[
        "[{time}] {s.rnf}: can you move {p.nick} to 3?\n[{time}] {s.npf}: which {p.nick}? {p.f} {p.l1} or the other one\n",
        "{s.npf}: {p.f} {p.l} no-showed again, 3rd time. call {p.him}?\n{s.rnf}: on it\n",
        "{s.docf}: squeeze {p.nick} in before the Zoom at 2, {he} just needs a BP check\n{s.rnf}: ok put {p.him} in 4\n",
        "{s.rnf}: is {p.f}'s {rel} coming too? {r.f} called twice asking\n",
        "{s.npf}: moved {p.f} {p.l1} to {wday} 10:15 and {q.nick} to the 3:30\n",
        "{s.rnf}: can u double book {q.f} w/ {p.mr} at 11? same family\n",
        "{s.npf}: {p.nick} is here early, room 2 free?\n",
    ],
    &[
        "{s.rnf}: fyi {q.f}'s new number is {phone}\n",
        "{s.npf}: {q.mr} wants a Teams visit instead, {q.he} is in {state} till {wday}\n",
        "{s.docf}: Tell {q.nick} {dl} is fine\n",
        "{s.rnf}: lol ok\n",
        "{s.npf}: who has {q.f} {q.l}? {q.his} son {o.f} is on line 2\n",
        "{s.rnf}: {q.f} {q.l} ({dobl}) rescheduled to {date}\n",
        "{s.npf}: got it, blocking {time} for {s.docf}\n",
    ],
];

const REFERRAL: &[&[&str]] = &[
    &[
        "{date}\n\nDr. {o.full}\n{dept}\n{addr}\n{city}, {st} {zip}\n\nDear Dr. {o.l},\n\n",
        "RE: {p.full}   DOB: {dob}   MRN: {mrn}\n\nDear Colleague,\n\n",
        "Referral to {dept}\nPatient: {p.fml}\nDOB {dob}\n\nDear Dr {o.l},\n\n",
        "To: {o.init}, MD\nFrom: {s.doc}\nRe: {p.rev} (DOB {dob})\n\n",
    ],
    &[
        "Thank you for seeing {p.fml}, a {okage}-year-old {sex} with {epon} and {clin}. ",
        "I am referring {p.mr}, who is {age}, for evaluation of {clin}. ",
        "{p.f} has had {clin} since {date}, despite {drug} and {drug}. ",
        "{p.mr} is accompanied to visits by {his} {rel}, {r.full}, who manages {his} medications. ",
        "We saw {p.f} {p.l} in clinic on {date}; {lab}. ",
    ],
    &[
        "Records including the {epon} workup are enclosed. ",
        "{He} prefers morning appointments and can be reached at {phone}. ",
        "{His} insurance is {ins} (member ID {plan}). ",
        "Please fax your note to {fax}. ",
        "{He} uses a Dexcom sensor, transmitter {dev}. ",
    ],
    &[
        "\n\nSincerely,\n\n{s.sig}\n{clinic}\n",
        "\n\nWarm regards,\n\n{o.full}, MD\nInternal Medicine\n",
        "\n\nBest,\n{s.doc}\n{clinic} | {dept}\n",
        "\n\nThank you,\n\n{O.SIG}",
    ],
];

const EMAIL: &[&[&str]] = &[
    &[
        "From: {p.email}\nTo: Riverbend Front Desk\nSubject: appointment\n\n",
        "From: \"{p.full}\" <{p.email}>\nSubject: Re: your visit on {date}\n\n",
        "From: {r.email}\nSubject: my {prel} {p.f}\n\n",
        "From: {o.email}\nSubject: records request for {p.full}\n\n",
    ],
    &[
        "Hi {s.docf},\n\n",
        "Dear {s.doc},\n\n",
        "Hello,\n\n",
        "Good afternoon {s.npf},\n\n",
        "Hi {s.rnf} -\n\n",
    ],
    &[
        "I need to move my appointment from {wday} to next week if possible. My date of birth is {dob}. ",
        "My {prel} {p.full} was discharged {wday} and we have questions about the {drug}. {p.nick} is {age} and lives with us at {addr}. ",
        "Attached is the form for {p.f}'s school. Her pediatrician before was Dr. {o.l}. ",
        "I logged in to {prod} from {ip} on {date} and it showed someone else's results. ",
        "Could you send my records to my new address, {addr}, {city}, {st} {zip}? ",
        "{prod} sent a security alert: new sign-in to my account from {ip}. Was that you? ",
        "We set up a page so the family can follow along: {url} ",
        "Please update my insurance to {ins}, member ID {plan}. ",
        "Our daughter {r.f} is starting {drug} and we wanted to check about {epon}. ",
        "I tried calling {dl} but the line was busy. ",
    ],
    &[
        "\n\nThanks,\n{p.full}\n{phone}",
        "\n\nBest,\n{p.f}",
        "\n\nSincerely,\n{r.full}",
        "\n\n- {p.nick}\nSent from my iPhone",
        "\n\nRegards,\n{o.full}\nMedical Records, Saint Vincent Hospital\nFax {fax}",
        "\n\nthank you\n{p.fl} {p.l1}",
    ],
];

fn pooled(rng: &mut Rng, ctx: &Ctx, pools: &[&[&str]]) -> B {
    let mut b = B::new();
    let mut picks = Vec::new();
    for (i, pool) in pools.iter().enumerate() {
        picks.push(rng.pick(pool));
        // Middle pools (the body) sometimes say more than one thing.
        if i > 0 && i + 1 < pools.len() && rng.chance(45) {
            let more = rng.pick(pool);
            if picks.last() != Some(&more) {
                picks.push(more);
            }
        }
    }
    for tpl in picks {
        // Two placeholders only make sense with their document: a second room, an Rx number.
        let tpl = tpl.replace("{room2}", "\u{1}").replace("{rxno}", "\u{2}");
        let mut rest = tpl.as_str();
        while let Some(i) = rest.find(['\u{1}', '\u{2}']) {
            ctx.fill(rng, &mut b, &rest[..i]);
            if rest[i..].starts_with('\u{1}') {
                let room = format!("{}{:02}", rng.range(2, 9), rng.range(1, 40));
                b.l(Kind::Room, &room);
            } else {
                // A prescription number identifies the patient's fill: "any other unique number".
                b.l(Kind::Account, &rng.digits(7));
            }
            rest = &rest[i + 1..];
        }
        let rest = rest.replace("{O.SIG}", "\u{3}");
        if let Some((before, after)) = rest.split_once('\u{3}') {
            ctx.fill(rng, &mut b, before);
            b.l(Kind::Person, &ctx.o.full_name());
            b.t(", MD\n");
            b.l(Kind::Address, &ctx.street);
            b.t("\n");
            b.l(Kind::Address, ctx.city.0);
            b.t(&format!(", {} ", ctx.city.1));
            b.l(Kind::Zip, &ctx.zip);
            b.t("\nTel ");
            b.l(Kind::Phone, &phone_text(rng, ctx.phone));
            b.t(" | Fax ");
            b.l(Kind::Fax, &phone_text(rng, ctx.fax));
            b.t("\n");
            ctx.fill(rng, &mut b, after);
        } else {
            ctx.fill(rng, &mut b, &rest);
        }
    }
    b
}

impl Person {
    fn full_name(&self) -> String {
        format!("{} {}", self.first, self.last)
    }
}

// ---------------------------------------------------------------------------------------------
// Structured families.

fn hl7(rng: &mut Rng, ctx: &Ctx) -> B {
    use Kind::*;
    let mut b = B::new();
    let seg = if rng.chance(50) { "\r" } else { "\n" };
    let adm = random_date(rng, 2023, 2025);
    let Ymd(ay, am, ad) = adm;
    let Ymd(y, m, d) = ctx.dob;
    let p = &ctx.p;
    let typ = rng.pick(&["ADT^A01", "ADT^A08", "ORU^R01", "SIU^S12"]);
    b.t("MSH|^~\\&|EPIC|RIVERBEND|LAB|RFH|");
    b.l(
        Date,
        &format!(
            "{ay}{am:02}{ad:02}{:02}{:02}",
            rng.range(0, 23),
            rng.range(0, 59)
        ),
    );
    b.t(&format!("||{typ}|MSG{}|P|2.5.1{seg}", rng.digits(6)));
    b.t("PID|1||");
    b.l(Mrn, &ctx.mrn);
    b.t("^^^RFH^MR||");
    b.l(Person, &caps(&p.last));
    b.t("^");
    b.l(Person, &caps(&p.first));
    if let Some(mid) = &p.middle {
        b.t("^");
        b.l(Person, &caps(mid));
    } else {
        b.t("^");
    }
    b.t("||");
    b.l(Date, &format!("{y}{m:02}{d:02}"));
    b.t(&format!("|{}|||", if p.male { "M" } else { "F" }));
    b.l(Address, &caps(&ctx.street));
    b.t("^^");
    b.l(Address, &caps(ctx.city.0));
    b.t(&format!("^{}^", ctx.city.1));
    b.l(Zip, &ctx.zip);
    b.t("^USA||");
    let [a, x, c] = ctx.phone;
    b.l(Phone, &format!("({a}){x}-{c:04}"));
    b.t("|||||");
    b.l(Account, &ctx.acct);
    b.t("|");
    b.l(Ssn, &ctx.ssn);
    b.t(seg);
    if rng.chance(60) {
        let r = &ctx.r;
        b.t("NK1|1|");
        b.l(Person, &caps(&r.last));
        b.t("^");
        b.l(Person, &caps(&r.first));
        b.t(&format!(
            "|{}|",
            rng.pick(&["CHD^Child", "SPO^Spouse", "SIB^Sibling"])
        ));
        let [a, x, c] = phone_number(rng);
        b.l(Phone, &format!("({a}){x}-{c:04}"));
        b.t(seg);
    }
    b.t("PV1|1|I|4W^");
    b.l(Room, &ctx.room);
    b.t("^");
    // PV1-3's third component is the bed.
    b.l(Room, &format!("{:02}", rng.range(1, 2)));
    b.t("^RFH||||");
    b.t("4417820^BRANDT^ANNELIESE^^^MD|||CAR||||||||");
    b.l(Account, &format!("V{}", rng.digits(8)));
    b.t("|||||||||||||||||||||||||");
    b.l(Date, &format!("{ay}{am:02}{ad:02}"));
    b.t(seg);
    b.t("IN1|1|");
    b.t(&format!(
        "{}|",
        rng.pick(&["AETNA", "MEDICARE", "BCBS", "HUMANA"])
    ));
    b.l(HealthPlan, &ctx.plan);
    b.t(seg);
    if rng.chance(50) {
        b.t("OBX|1|NM|4548-4^Hemoglobin A1c^LN||8.1|%|4.0-5.6|H|||F");
        b.t(seg);
    }
    b
}

fn registry(rng: &mut Rng, people: &[Person]) -> B {
    use Kind::*;
    let mut b = B::new();
    match rng.below(3) {
        0 => {
            b.t("mrn,last_name,first_name,dob,phone,zip,pcp,last_visit,a1c\n");
            for p in people {
                let c = Ctx::new(rng, p.clone(), p.clone());
                b.l(Mrn, &c.mrn);
                b.t(",");
                b.l(Person, &caps(&p.last));
                b.t(",");
                b.l(Person, &caps(&p.first));
                b.t(",");
                let Ymd(y, m, d) = c.dob;
                b.l(Date, &format!("{y}-{m:02}-{d:02}"));
                b.t(",");
                let [a, x, n] = c.phone;
                b.l(Phone, &format!("{a}-{x}-{n:04}"));
                b.t(",");
                b.l(Zip, &c.zip);
                b.t(",Brandt,");
                let Ymd(y, m, d) = random_date(rng, 2023, 2025);
                b.l(Date, &format!("{y}-{m:02}-{d:02}"));
                b.t(&format!(",{}.{}\n", rng.range(5, 11), rng.range(0, 9)));
            }
        }
        1 => {
            b.t("DIABETES REGISTRY - PANEL: BRANDT\nPATIENT                        DOB         LAST A1C\n");
            for p in people {
                let c = Ctx::new(rng, p.clone(), p.clone());
                let at = b.text.len();
                reversed_caps(&mut b, p);
                let pad = 31usize.saturating_sub(b.text[at..].chars().count()).max(1);
                b.t(&" ".repeat(pad));
                let Ymd(y, mo, d) = c.dob;
                b.l(Date, &format!("{mo:02}/{d:02}/{y}"));
                b.t(&format!("  {}.{}%\n", rng.range(5, 12), rng.range(0, 9)));
            }
        }
        _ => {
            b.t("\"Patient Name\",\"MRN\",\"DOB\",\"Age\",\"Insurance\",\"Member ID\"\n");
            for p in people {
                let c = Ctx::new(rng, p.clone(), p.clone());
                b.t("\"");
                b.l(Person, &p.last);
                b.t(", ");
                b.l(Person, &p.first);
                b.t("\",\"");
                b.l(Mrn, &c.mrn);
                b.t("\",\"");
                b.l(Date, &date_full(rng, c.dob));
                b.t("\",\"");
                // Ages as of 2025 (the set does not depend on today's date); only over 89 is PHI.
                let age = 2025 - c.dob.0;
                if age > 89 {
                    b.l(Age, &age.to_string());
                } else {
                    b.t(&age.to_string());
                }
                b.t(&format!("\",\"{}\",\"", rng.pick(INSURERS)));
                b.l(HealthPlan, &c.plan);
                b.t("\"\n");
            }
        }
    }
    b
}

fn filenames(rng: &mut Rng, ctx: &Ctx) -> B {
    use Kind::*;
    let mut b = B::new();
    b.t(rng.pick(&[
        "Attachments:\n",
        "Scanned documents received (fax server):\n",
        "Files uploaded to chart:\n",
        "Please index these into Epic:\n",
    ]));
    let n = rng.range(2, 4);
    for _ in 0..n {
        let p = if rng.chance(70) { &ctx.p } else { &ctx.q };
        let c = Ctx::new(rng, p.clone(), p.clone());
        let accent = rng.chance(40);
        let (first, last) = if accent {
            (p.first.clone(), p.last.clone())
        } else {
            (fold(&p.first), fold(&p.last))
        };
        let sep = rng.pick(&["_", "-", "."]);
        let Ymd(y, m, d) = c.dob;
        b.t("- ");
        match rng.below(6) {
            0 => {
                b.l(Person, &last.replace(' ', ""));
                b.t(sep);
                b.l(Person, &first.replace(' ', ""));
                b.t(&format!("{sep}DOB"));
                b.l(Date, &format!("{y}-{m:02}-{d:02}"));
                b.t(&format!("{sep}MRN"));
                b.l(Mrn, &c.mrn);
                b.t(".pdf");
            }
            1 => {
                b.t(&format!("scan{sep}"));
                let Ymd(vy, vm, vd) = random_date(rng, 2023, 2025);
                b.l(Date, &format!("{vy}{vm:02}{vd:02}"));
                b.t(sep);
                b.l(Person, &lower(&first.replace(' ', "")));
                b.t(".");
                b.l(Person, &lower(&last.replace(' ', "")));
                b.t(&format!("{sep}ins{sep}card.jpg"));
            }
            2 => {
                b.t("CXR_");
                b.l(Person, &caps(&last.replace(' ', "")));
                b.t(".");
                b.l(Person, &first.chars().next().expect("first").to_string());
                b.t("_");
                b.l(Mrn, &c.mrn.replace('-', ""));
                b.t(".dcm");
            }
            3 => {
                b.t(&format!("referral{sep}"));
                b.l(Person, &lower(&last.replace(' ', "-")));
                b.t("-");
                b.l(Person, &lower(&first.replace(' ', "-")));
                b.t(sep);
                let Ymd(vy, vm, vd) = random_date(rng, 2023, 2025);
                b.l(Date, &format!("{vy}-{vm:02}-{vd:02}"));
                b.t(".docx");
            }
            4 => {
                b.l(Mrn, &c.mrn);
                b.t("_");
                b.l(Person, &caps(&last.replace(' ', "_")));
                b.t("_");
                b.l(Person, &caps(&first.replace(' ', "_")));
                b.t("_");
                b.l(Date, &format!("{m:02}{d:02}{y}"));
                b.t(&format!(
                    "_{}.tif",
                    rng.pick(&["EKG", "ECHO", "CONSENT", "POLST"])
                ));
            }
            _ => {
                b.t("IMG_");
                b.t(&rng.digits(4));
                b.t(" (");
                b.l(Person, &format!("{first} {last}"));
                b.t(&format!(
                    " {} ",
                    rng.pick(&["wound photo", "rash", "med list", "id card"])
                ));
                b.l(Date, &format!("{m}.{d}.{}", y % 100));
                b.t(").HEIC");
            }
        }
        b.t("\n");
    }
    if rng.chance(50) {
        ctx.fill(
            rng,
            &mut b,
            "Sent by {r.full} ({r.email}) on behalf of {p.f}.\n",
        );
    }
    b
}

// ---------------------------------------------------------------------------------------------

pub const FAMILIES: &[&str] = &[
    "discharge",
    "handoff",
    "portal",
    "voicemail",
    "lab",
    "pharmacy",
    "billing",
    "scheduling",
    "referral",
    "hl7",
    "registry",
    "filenames",
    "email",
];

/// `n` documents, round-robin over the families, from a pool of patients.
pub fn generate(seed: u64, n: usize) -> Set {
    let mut rng = Rng::new(seed);
    let pool: Vec<Person> = (0..240).map(|_| person(&mut rng)).collect();
    let roster = pool
        .iter()
        .step_by(3)
        .map(Person::full_name)
        .collect::<Vec<_>>();
    let mut docs = Vec::with_capacity(n);
    for i in 0..n {
        let family = FAMILIES[i % FAMILIES.len()];
        let p = rng.pick(&pool);
        let q = rng.pick(&pool);
        let ctx = Ctx::new(&mut rng, p, q);
        let b = match family {
            "discharge" => pooled(&mut rng, &ctx, DISCHARGE),
            "handoff" => pooled(&mut rng, &ctx, HANDOFF),
            "portal" => pooled(&mut rng, &ctx, PORTAL),
            "voicemail" => pooled(&mut rng, &ctx, VOICEMAIL),
            "lab" => pooled(&mut rng, &ctx, LAB),
            "pharmacy" => pooled(&mut rng, &ctx, PHARMACY),
            "billing" => pooled(&mut rng, &ctx, BILLING),
            "scheduling" => pooled(&mut rng, &ctx, SCHEDULING),
            "referral" => pooled(&mut rng, &ctx, REFERRAL),
            "hl7" => hl7(&mut rng, &ctx),
            "registry" => {
                let k = rng.range(3, 6) as usize;
                let people: Vec<Person> = (0..k).map(|_| rng.pick(&pool)).collect();
                registry(&mut rng, &people)
            }
            "filenames" => filenames(&mut rng, &ctx),
            _ => pooled(&mut rng, &ctx, EMAIL),
        };
        docs.push(Doc {
            family,
            text: b.text,
            labels: b.labels,
        });
    }
    Set {
        docs,
        keep: keep_list(),
        roster,
    }
}
