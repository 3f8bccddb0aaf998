//! The name lexicon and the dictionary of common words, from public data (assets/phi/, see its
//! README): first names (US Census 1990, every name listed), the 15,000 most frequent surnames
//! (US Census 1990), and the lower-case words of SCOWL's small American English list. They
//! decide, word by word, whether a word in a name position is a name (fail closed: a word the
//! dictionary does not know is one) and whether a word standing alone is (only a known name
//! that is not also a common word).

use std::collections::HashSet;
use std::sync::LazyLock;

use super::rules::fold_ascii;

const FIRST_NAMES: &str = include_str!("../../../assets/phi/first_names.txt");
const SURNAMES: &str = include_str!("../../../assets/phi/surnames.txt");
const COMMON_WORDS: &str = include_str!("../../../assets/phi/common_words.txt");

/// Names SCOWL also lists as lower-case words ("maria" the lunar seas, "martin" the bird) that
/// in clinic text are almost always the name: not counted as common words.
const NAMES_FIRST: &[&str] = &[
    "maria", "carol", "sally", "sue", "patty", "marina", "dolly", "christen", "barb", "dean",
    "peter", "mike", "harry", "earl", "warren", "martin", "victor", "hazel", "heather", "rosemary",
    "sherry", "eddy", "brandy", "misty", "sandy", "penny", "robin", "ruby", "viola", "gene",
];

/// Virtue names the census list lacks beside its "Patience", "Prudence", "Mercy" ("Honor
/// Blakemore", "Verity Lane"): given names that stay common words too.
const VIRTUE_NAMES: &[&str] = &["honor", "honour", "verity", "felicity", "temperance"];

/// Spanish words of patient messages the English dictionary lacks (why: unknown to it, "mi
/// cita del sábado" and "Bendiciones," read as names). Looked up folded, without accents.
const SPANISH_COMMON: &[&str] = &[
    "hola",
    "buenos",
    "buenas",
    "dias",
    "tardes",
    "noches",
    "saludos",
    "gracias",
    "muchas",
    "bendiciones",
    "atentamente",
    "cita",
    "fecha",
    "nacimiento",
    "numero",
    "nombre",
    "tarjeta",
    "seguro",
    "expediente",
    "paciente",
    "necesito",
    "cambiar",
    "reprogramar",
    "cancelar",
    "llamo",
    "llamar",
    "otra",
    "vez",
    "semana",
    "proxima",
    "tengo",
    "transporte",
    "trabajo",
    "ayuda",
    "portal",
    "dice",
    "tomo",
    "siento",
    "mejor",
    "dolor",
    "todavia",
    "pastillas",
    "veces",
    "dia",
    "unidades",
    "queda",
    "ese",
    "esta",
    "estoy",
    "soy",
    "mi",
    "le",
    "las",
    "los",
    "del",
    "manana",
    "hoy",
    "doctora",
    "doctor",
    "medico",
    "clinica",
    "receta",
    "medicina",
    "farmacia",
    "ya",
    "no",
    "si",
    "pero",
    "hija",
    "hijo",
    "esposa",
    "esposo",
    "mama",
    "papa",
    "hermana",
    "hermano",
];

/// Function words of the other languages patients write in (Vietnamese, Tagalog, Portuguese,
/// Haitian Creole) that read as a capitalised unknown word at a sentence's start ("Bonjou,
/// mwen rele…", "Tôi cần…"): never part of a name. Folded like every key; a word whose folded
/// form is also a name ("Chao", "Ola", "Li", "Nan", "Ang") is not here but in
/// [`MARKED_STOP`], as written.
const FOREIGN_STOP: &[&str] = &[
    // Tagalog
    "ako",
    "opo",
    "siya",
    "kami",
    "sila",
    "namin",
    "ninyo",
    "nila",
    "ipinanganak",
    "noong",
    "pangalan",
    "salamat",
    "magandang",
    "kaarawan",
    "tumawag",
    "tawagan",
    "kailangan",
    // Portuguese
    "obrigado",
    "obrigada",
    "nasci",
    "nascido",
    "nascida",
    "meu",
    "minha",
    "telefone",
    "preciso",
    "remarcar",
    "consulta",
    "atenciosamente",
    "abracos",
    // Haitian Creole
    "bonjou",
    "bonswa",
    "mwen",
    "nesans",
    "oswa",
    "ekri",
    "mesi",
    "tanpri",
    "randevou",
    "manman",
    // German (every noun capitalised: the words around a name must not read as one)
    "ich",
    "mein",
    "meine",
    "meinen",
    "meiner",
    "meinem",
    "lautet",
    "brauche",
    "geehrte",
    "geehrter",
    "freundlichen",
    "gruessen",
    "grussen",
    "geboren",
    "bitte",
    "danke",
    "adresse",
    "versichertennummer",
    "rezept",
    "termin",
    // a German referral letter's words (folded): "Letzte Vorstellung: …, nächster Termin",
    // "Betreff: Überweisung", "wohnhaft", "Die Patientin ist 94 Jahre alt"
    "letzte",
    "letzter",
    "letzten",
    "nachste",
    "nachster",
    "vorstellung",
    "uberweisung",
    "uberweisen",
    "betreff",
    "wohnhaft",
    "patientin",
    "jahre",
    "befund",
    "diagnose",
    // French
    "rappeler",
    "pouvez",
    "vous",
    "habite",
    "depuis",
    "bonjour",
    "merci",
    "dossier",
    "numero",
    "cordialement",
    // Polish
    "prosze",
    "przesuniecie",
    "wizyty",
    "inny",
    "numer",
    "adres",
    "dzien",
    "dziekuje",
    "pozdrawiam",
    // a Polish letter's salutation and the verbs around a name ("Szanowni Państwo",
    // "Mama przyjmuje …")
    "szanowni",
    "szanowny",
    "szanowna",
    "panstwo",
    "przyjmuje",
    "zwracam",
    // romanised Mandarin, Arabic and Korean
    "xuyao",
    "qing",
    "dianhua",
    "bingli",
    "nin",
    "tarikh",
    "milad",
    "al-milad",
    "milaf",
    "al-milaf",
    "raqam",
    "marhaba",
    // Arabizi (Arabic in Latin letters): pronouns and thanks ("bas huwa ta3ban", "Shukran
    // jazeelan")
    "huwa",
    "hiya",
    "shukran",
    "jazeelan",
    "jazilan",
    "doktor",
    "indahu",
    "sukhuna",
    "annyeonghaseyo",
    "jeoneun",
    "imnida",
    "saengnyeonworil",
    "saengnyeonworil-eun",
    "gamsahamnida",
    // How Italian, Dutch, Turkish, Swahili, romanised Hindi and Japanese and Danish messages
    // greet, thank and say what they want ("Buongiorno, sono …", "Goedemiddag, mijn naam is
    // …", "Habari, naitwa …", "namaste ji, mera naam … hai"): the words around a name.
    "buongiorno",
    "ciao",
    "goedendag",
    "ik",
    "benim",
    "jina",
    "langu",
    "buonasera",
    "salve",
    "grazie",
    "nata",
    "nato",
    "vorrei",
    "spostare",
    "appuntamento",
    "goedemiddag",
    "goedemorgen",
    "goedenavond",
    "mijn",
    "geboortedatum",
    "afspraak",
    "verzetten",
    "graag",
    "bedankt",
    "groeten",
    "merhaba",
    "gunaydin",
    "dogum",
    "tarihim",
    "tarihi",
    "randevum",
    "randevumu",
    "numaram",
    "lutfen",
    "tesekkurler",
    "habari",
    "hujambo",
    "jambo",
    "nilizaliwa",
    "tarehe",
    "namba",
    "yangu",
    "naomba",
    "kubadilisha",
    "miadi",
    "namaste",
    "namaskar",
    "janam",
    "tithi",
    "dhanyavaad",
    "dhanyavad",
    "shukriya",
    "konnichiwa",
    "watashi",
    "desu",
    "seinengappi",
    "yoyaku",
    "shitai",
    "denwa",
    "bango",
    "onegaishimasu",
    "arigato",
    "hej",
    "jeg",
    "fodt",
    "aftale",
    // Romanised Greek, Hebrew, Thai and Ukrainian: what a relative's message says around the
    // name ("I giagia mou, X, einai 91 eton kai nosileuetai sto dwmatio 12", "Shalom, ani X,
    // teudat zehut…", "Mae khong phom, khun X, ayu 88 pi", "Moia mama X prosyt perezvonyty").
    "giagia",
    "einai",
    "eton",
    "nosileuetai",
    "dwmatio",
    "tilefono",
    "efcharisto",
    "shalom",
    "teudat",
    "zehut",
    "aval",
    "mispar",
    "taarich",
    "ha-isha",
    "tavo",
    "iti",
    "khong",
    "phom",
    "ayu",
    "khob",
    "krub",
    "dobryi",
    "mene",
    "moia",
    "prosyt",
    "perezvonyty",
    "narodzhennia",
    "nomer",
    "polisa",
    // Taglish, Malay, romanised Urdu and Swahili: the words around a name in a patient's
    // message ("Pwede po ba i-resched yung appointment", "Boleh tukar temujanji", "Meri
    // tareekh-e-paidaish … hai", "ana miaka 93 na anahitaji dawa. Nipigie …").
    "yung",
    "iyong",
    "kasi",
    "talaga",
    "niyo",
    "nyo",
    "ninyo",
    "hindi",
    "pwede",
    "puwede",
    "dito",
    "doon",
    "mga",
    "pero",
    "dahil",
    "tapos",
    "boleh",
    "tukar",
    "temujanji",
    "minggu",
    "depan",
    "hantar",
    "lahir",
    "terima",
    "kasih",
    "assalamualaikum",
    "alaikum",
    "assalam",
    "tareekh",
    "paidaish",
    "tareekh-e-paidaish",
    "saal",
    "unhein",
    "bukhar",
    "wewe",
    "yeye",
    "sisi",
    "miaka",
    "ninaishi",
    "anahitaji",
    "dawa",
    "daktari",
    "nipigie",
    "tafadhali",
    "wangu",
    // Somali: the greetings, "my name is" and the words around a name in a patient's
    // message ("Salaan, magacaygu waa …", "Portal — fariin cusub", "fadlan ii soo
    // diyaariya").
    "salaan",
    "nabad",
    "asc",
    "magacaygu",
    "waa",
    "fariin",
    "cusub",
    "bukaan",
    "diyaariya",
    // Haitian Creole "li malad" (she is ill), "mèsi anpil" (thanks a lot)
    "malad",
    "anpil",
    "taariikhda",
    "lambarka",
    "taleefankaygu",
    "caafimaadka",
    "fadlan",
    "daawadii",
    "dhammaatay",
    "waxay",
    "jirtaa",
    "ayaa",
    "xanuunsan",
    "ballan",
    "heli",
    "karaa",
];

/// Function words of romanised Hindi and Swahili that are also given names elsewhere ("hai"
/// is "is", "Hai" a Vietnamese name; "sana" is "very", "Sana" a name): stop words only as
/// written in lower case, as those messages are typed.
const LOWER_STOP: &[&str] = &[
    "hai", "hain", "ji", "mera", "meri", "mere", "ka", "ki", "ke", "ko", "se", "kal", "sana",
    "naam", "nahi", "aur", "ni",
    // Swahili "asante" (thanks) is a surname capitalised ("Oyelowo/Asante").
    "asante",
    // Greek "kai/sto/mou", Hebrew "lo", Ukrainian "na", Thai "yoo hong" (in room), Hebrew
    // "leida" (birth): names elsewhere, function words as typed in lower case.
    "kai", "sto", "mou", "lo", "na", "yoo", "hong", "leida",
    // Tagalog "po/ba/mo", Swahili "ana" (has), "nina" (I have), "leo" (today), "jana"
    // (yesterday): names elsewhere ("Ana", "Nina", "Leo", "Jana").
    "po", "ba", "mo", "ana", "nina", "leo", "jana",
    // Taglish "lang/naman/ito" (just, also, this), Urdu "umar" (age), Swahili "mimi" (I).
    "lang", "naman", "ito", "umar", "mimi",
    // romanised Hindi/Urdu verbs and particles ("bata dena", "call kiya", "abhi nahin")
    "bata", "dena", "kiya", "karna", "karo", "gaya", "gayi", "raha", "rahi", "bhi", "nahin", "abhi",
    "kya", "kyun",
    // "Thanks, see below": a lower-case verb after a closing, never a name typed so.
    "see",
    // "caller said:": a transcript's verb of speech; "Said" is a given name capitalised.
    "said",
];

/// Whether a lower-case word is a function word of romanised Hindi/Urdu, Swahili and the
/// other languages of [`LOWER_STOP`] ("hai", "meri", "ki"): a name elsewhere ("Meri",
/// "Hai"), so only the words around it tell which.
pub(super) fn lower_function_word(key: &str) -> bool {
    key != "see" && LOWER_STOP.contains(&key)
}

/// Function words whose accents tell them from a name the folded look-up would find
/// ("chào" is no "Chao", "olá" no "Ola"): matched as written, lower-cased.
const MARKED_STOP: &[&str] = &[
    // Vietnamese
    "tôi",
    "chào",
    "bác",
    "sĩ",
    "tên",
    "là",
    "ngày",
    "số",
    "điện",
    "thoại",
    "của",
    "cần",
    "đổi",
    "lịch",
    "hẹn",
    "cảm",
    "ơn",
    "không",
    "có",
    "được",
    "với",
    "và",
    "gọi",
    "tháng",
    "năm",
    "giờ",
    "chiều",
    "sáng",
    "hôm",
    "mẹ",
    "bố",
    "cháu",
    "ông",
    "bà",
    "chị",
    "tuổi",
    "bệnh",
    "viện",
    "thuốc",
    "nhà",
    "địa",
    "chỉ",
    "đến",
    "hỏi",
    "vợ",
    "chồng",
    // Portuguese
    "olá",
    "avó",
    "avô",
    "irmã",
    "irmão",
    "é",
    "você",
    "endereço",
    "mãe",
    "não",
    "até",
    // Haitian Creole
    "mèsi",
    "doktè",
    "telefòn",
];

/// Words that are never part of a name, in any case, whatever the lexicon says: function words,
/// auxiliaries, the cue words themselves, weekdays, months and relative dates (deadlines must
/// stay readable), chat and clinical abbreviations, eponyms of tests and conditions, payers and
/// record systems.
const STOP: &[&str] = &[
    // function words and auxiliaries
    "else",
    "a",
    "an",
    "the",
    "and",
    "or",
    "but",
    "nor",
    "if",
    "so",
    "as",
    "at",
    "by",
    "for",
    "from",
    "in",
    "into",
    "of",
    "off",
    "on",
    "onto",
    "out",
    "over",
    "per",
    "to",
    "up",
    "via",
    "with",
    "without",
    "about",
    "after",
    "before",
    "again",
    "also",
    "just",
    "still",
    "only",
    "then",
    "than",
    "that",
    "this",
    "these",
    "those",
    "there",
    "here",
    "what",
    "who",
    "whom",
    "whose",
    "which",
    "when",
    "where",
    "why",
    "how",
    "is",
    "was",
    "are",
    "were",
    "be",
    "been",
    "being",
    "am",
    "has",
    "have",
    "had",
    "do",
    "does",
    "did",
    "will",
    "would",
    "shall",
    "should",
    "may",
    "might",
    "must",
    "can",
    "could",
    "not",
    "no",
    "yes",
    "ok",
    "okay",
    "i",
    "me",
    "my",
    "mine",
    "you",
    "your",
    "yours",
    "he",
    "him",
    "his",
    "she",
    "her",
    "hers",
    "it",
    "its",
    "we",
    "us",
    "our",
    "they",
    "them",
    "their",
    "all",
    "any",
    "some",
    "each",
    "every",
    "both",
    "either",
    "neither",
    "none",
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
    "re",
    "fw",
    "fwd",
    "cc",
    "bcc",
    "attn",
    "hi",
    "hello",
    "hey",
    "dear",
    "thanks",
    "thank",
    "thx",
    "ty",
    "pls",
    "plz",
    "please",
    "regards",
    "sincerely",
    "cheers",
    "best",
    "morning",
    "afternoon",
    "evening",
    "night",
    "good",
    "team",
    "all",
    "everyone",
    "folks",
    "um",
    "uh",
    "er",
    "ah",
    "eh",
    "hmm",
    "erm",
    "mm",
    "oh",
    "yeah",
    "yep",
    "nope",
    "like",
    "min",
    "max",
    "sec",
    "soc",
    "hrs",
    "mins",
    "wk",
    "wks",
    "mo",
    "mos",
    "yr",
    "yrs",
    "approx",
    // clinical shorthand for a visit or a service ("PT eval Tuesday", "f/u with ortho")
    "eval",
    "evals",
    "reeval",
    "rehab",
    "ortho",
    "neuro",
    "cardio",
    "psych",
    "derm",
    "onc",
    "peds",
    "endo",
    "pulm",
    "nephro",
    "uro",
    "heme",
    "rheum",
    "postop",
    "preop",
    // cue words not in `CUES` (which the stop set includes: a cue is not the name it introduces)
    "pts",
    "patients",
    "doctor",
    "rev",
    "sr",
    "jr",
    "nurse",
    "member",
    "name",
    "signed",
    // days, months, relative dates and times
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "mon",
    "tue",
    "tues",
    "wed",
    "thu",
    "thur",
    "thurs",
    "fri",
    "sat",
    "sun",
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
    "today",
    "tomorrow",
    "tonight",
    "yesterday",
    "tmrw",
    "tmr",
    "eod",
    "cob",
    "eow",
    "noon",
    "midnight",
    "asap",
    "am",
    "pm",
    "week",
    "weekend",
    "month",
    "year",
    "christmas",
    "thanksgiving",
    "easter",
    // chat and clinical abbreviations
    "appt",
    "appts",
    "meds",
    "med",
    "rx",
    "dx",
    "hx",
    "tx",
    "sx",
    "fx",
    "bp",
    "hr",
    "rr",
    "iv",
    "po",
    "prn",
    "bid",
    "tid",
    "qid",
    "qd",
    "npo",
    "ed",
    "er",
    "icu",
    "or",
    "pcp",
    "md",
    "do",
    "rn",
    "np",
    "pa",
    "lpn",
    "cna",
    "mri",
    "ct",
    "ekg",
    "ecg",
    "cbc",
    "bmp",
    "cmp",
    "inr",
    "labs",
    "lab",
    "vm",
    "msg",
    "fyi",
    "btw",
    "lol",
    "omg",
    "covid",
    "flu",
    "xray",
    "ptt",
    "tsh",
    "ua",
    "uti",
    "copd",
    "chf",
    "htn",
    "dm",
    "cad",
    "ckd",
    "mrn",
    "dob",
    "ssn",
    // a form's shortened labels ("PT ADDR:")
    "addr",
    "id",
    "hipaa",
    "phi",
    "ehr",
    "emr",
    "hl",
    "adt",
    "oru",
    "msh",
    "pid",
    "obx",
    "obr",
    "nte",
    "ins",
    "dept",
    "ext",
    "fax",
    "tel",
    "ph",
    "email",
    "mail",
    "inbox",
    "portal",
    "mychart",
    "sms",
    "text",
    "voicemail",
    "transcript",
    "refill",
    "refills",
    "pharmacy",
    "billing",
    "scheduling",
    "clinic",
    "office",
    "front",
    "desk",
    "triage",
    "intake",
    "referral",
    "re",
    // eponyms (tests, scales, conditions, devices) and systems, payers, products
    // (agencies and hearing-aid makers: "per OSHA 300", "Phonak Lumity 90")
    "osha",
    "phonak",
    "oticon",
    "widex",
    "starkey",
    "signia",
    "resound",
    // a fax's OCR reads "Name" and "NPI" so ("Patient Narne:", "Dr. Osei  NPl 1234")
    "narne",
    "npl",
    "foley",
    "holter",
    "doppler",
    "parkinson",
    "parkinsons",
    "alzheimer",
    "alzheimers",
    "crohn",
    "crohns",
    "hodgkin",
    "hodgkins",
    "bell",
    "down",
    "apgar",
    "glasgow",
    "braden",
    "morse",
    "babinski",
    "heimlich",
    "epic",
    "cerner",
    "athena",
    "athenahealth",
    "allscripts",
    "meditech",
    "aetna",
    "molina",
    "unitedhealthcare",
    "centene",
    "ambetter",
    "wellcare",
    "highmark",
    "caresource",
    "oscar",
    "cigna",
    "humana",
    "anthem",
    "kaiser",
    "medicare",
    "medicaid",
    "tricare",
    "optum",
    "bluecross",
    "blue",
    "cross",
    "shield",
    "united",
    "healthcare",
    "walgreens",
    "cvs",
    "rite",
    "aid",
    "costco",
    "kroger",
    "quest",
    "labcorp",
    "zoom",
    "teams",
    "outlook",
    "microsoft",
    "google",
    "gmail",
    "yahoo",
    "copilot",
    "github",
    "tylenol",
    "advil",
    "motrin",
    "lasix",
    "coumadin",
    "eliquis",
    "xarelto",
    "lipitor",
    "zoloft",
    "metformin",
    "lisinopril",
    "amlodipine",
    "atorvastatin",
    "gabapentin",
    "prednisone",
    "insulin",
    "warfarin",
    "levothyroxine",
    "omeprazole",
    "losartan",
    "albuterol",
    "ozempic",
    // Spanish, as US clinics' patient messages are written: function words, weekdays and
    // months (never a name; a deadline stays readable), folded as looked up. Not "de", "la",
    // "del", "el" (surname particles: "de la Cruz"), nor "tu", "su" (surnames).
    "mi",
    "mis",
    "es",
    "y",
    "con",
    "por",
    "para",
    "porque",
    "que",
    "una",
    "un",
    "los",
    "las",
    "lunes",
    "martes",
    "miercoles",
    "jueves",
    "viernes",
    "sabado",
    "domingo",
    "enero",
    "febrero",
    "marzo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
    "manana",
    "hoy",
    "ayer",
];

/// Words that introduce a name: a title, a role, a kin word, a greeting or a closing.
pub(super) const CUES: &[&str] = &[
    "pt",
    "patient",
    "caller",
    "daughter",
    "son",
    "wife",
    "husband",
    "mother",
    "father",
    "mom",
    "dad",
    "sister",
    "brother",
    "spouse",
    "partner",
    "caregiver",
    "guardian",
    "neighbor",
    "neighbour",
    "roommate",
    "niece",
    "nephew",
    "aunt",
    "uncle",
    "cousin",
    "grandson",
    "granddaughter",
    "grandmother",
    "grandfather",
    "grandma",
    "grandpa",
    // "calling about child Ren (DOB …)"
    "child",
    "mr",
    "mrs",
    "ms",
    "mx",
    "miss",
    "dr",
    "prof",
    "dear",
    "hi",
    "hello",
    "hey",
    "thanks",
    "thx",
    "regards",
    "sincerely",
    "cheers",
    "resident",
    "client",
    "guarantor",
    "subscriber",
    "insured",
    "attn",
    "morning",
    "afternoon",
    "evening",
    "named",
    // "hi dr brandt its łukasz zielińska", "i'm told its maarten"
    "its",
    // verbs a name follows in scheduling and call notes ("move Soledad to 3pm", "remind olu")
    "move",
    "reschedule",
    "book",
    "booked",
    "squeeze",
    "moved",
    "seeing",
    "saw",
    "remind",
    "ask",
    "tell",
    "per",
    // Spanish: kin words, titles, greetings, closings and "me llamo", "soy" ("mi hija
    // Nkechi", "la Dra. Voss", "Bendiciones, rose", "soy Oksana Vu").
    "hija",
    "hijo",
    "esposa",
    "esposo",
    // Looked up as written ("mamá") and, for the stop list, folded ("mama").
    "mamá",
    "papá",
    "mama",
    "papa",
    "madre",
    "padre",
    "hermana",
    "hermano",
    "abuela",
    "abuelo",
    "nieta",
    "nieto",
    "dra",
    "sra",
    "srta",
    "hola",
    "gracias",
    "bendiciones",
    "saludos",
    "atentamente",
    "llamo",
    "soy",
    // How the other languages introduce a person: Haitian Creole "mwen rele", Portuguese "me
    // chamo", Tagalog's personal articles ("Ako po si Jasper Szabo", "kay", "ni").
    "rele",
    // ... and the European and Asian ones: "mein Name ist", "je m'appelle", "nazywam się",
    // "меня зовут", Arabic "ismi", Korean "jeoneun … imnida"; their kin words ("Ma fille
    // Anselm", "Ibni Lasse", "Eomeoni Stella").
    "ist",
    "grüßen",
    "grüsse",
    "grüße",
    "cordialement",
    "pozdrawiam",
    "appelle",
    "nazywam",
    "зовут",
    "ismi",
    "fille",
    "fils",
    "tochter",
    "sohn",
    "corka",
    "córka",
    "syn",
    "ibni",
    "ibnati",
    "binti",
    "eomeoni",
    "abeoji",
    "adeul",
    "dtr",
    "chamo",
    "si",
    "kay",
    // Italian "mi chiamo", "sono"; Dutch "mijn naam is"; Swahili "naitwa"; Danish "jeg
    // hedder"; Hindi "mera naam".
    "chiamo",
    "sono",
    "naam",
    "naitwa",
    "hedder",
    // Turkish "benim adım"
    "adım",
    // Whom a proxy or consent form names: "appoint Will Fields as my agent".
    "appoint",
    "designate",
    "nominate",
    // Thai "khun X" (the courtesy title), Hebrew "ha-isha sheli X" (my wife X), Ukrainian
    // "mene zvaty X" (my name is X); the people a contact-tracing, collections or device
    // claim names ("housemate X", "debtor X", "Wearer: X").
    "khun",
    "sheli",
    "zvaty",
    "housemate",
    "debtor",
    "wearer",
    // an alias ("Ana Ruiz, aka A. Ruiz")
    "aka",
    // Whom a security report, an advance directive or a gift card names: "visitor Ann Lee",
    // "my health care agent Ann Lee", "Get well soon Ann!!" ("soon" only in a wish: see
    // `positions::cue_fits`; the closing "love, Bo" is read there too, "love" being a
    // surname no cue may block).
    "visitor",
    "agent",
    "proxy",
    "soon",
    // Swedish "jag heter", Amharic "sime X new" (my name is), Dutch, Danish and Norwegian
    // closings; Hungarian, Bengali/Yoruba and Norwegian kin words ("az apám X", "amar baba
    // X", "bestefaren min, X"), as written and folded for the stop list.
    "heter",
    "sime",
    "groet",
    "groeten",
    "hilsen",
    "apám",
    "apam",
    "anyám",
    "anyam",
    "baba",
    // Yoruba, as written and folded: "bàbá mi X" (my father), "ìyá mi X" (my mother); the
    // title "Dókítà" (doctor); German "Frau", "Herr(n)" before a name.
    "bàbá",
    "ìyá",
    "iya",
    "dókítà",
    "dokita",
    "frau",
    "herr",
    "herrn",
    "bestefaren",
    "bestemoren",
    // Malay "saya X" (I am X; "anak saya X", my child X), Catalan "em dic X" (my name is X),
    // and the kin words and titles of Italian, Catalan, Malay, Tagalog, romanised Urdu and
    // Swahili ("mio marito X", "il signor X", "asawa ko si X", "meri walida X", "bibi yangu
    // X", "bwana X", "mzee X"): see `positions::is_kin`.
    "saya",
    "dic",
    "marito",
    "moglie",
    "figlia",
    "figlio",
    "fratello",
    "sorella",
    "nonna",
    "nonno",
    "marit",
    "filla",
    "germana",
    "germà",
    "anak",
    "suami",
    "isteri",
    "asawa",
    "walida",
    "walidah",
    "beti",
    "shohar",
    "biwi",
    "bibi",
    "mume",
    "mke",
    "mtoto",
    "signor",
    "signora",
    "signorina",
    "senyor",
    "senyora",
    "bwana",
    "mzee",
    "encik",
    "puan",
    // Tagalog "sina X at Y" (plural "si"), "Gng. X" (Mrs.); Italian "Sig. X", "Dott. X";
    // romanised Urdu "janab X", "mohtarma X"; Swahili "Bi X" (Ms.).
    "sina",
    "gng",
    "sig",
    "dott",
    "dottor",
    "dottoressa",
    "janab",
    "mohtarma",
    "bi",
    // Kin words of Haitian Creole, Portuguese, Vietnamese, romanised and written Greek and
    // Somali ("Manman m X", "Minha avó X", "Mẹ tôi X", "I giagia mou X", "η μητέρα μου X",
    // "Hooyaday X"): the possessive that may follow them is read in `positions.rs`.
    "manman",
    "pitit",
    "madanm",
    "grann",
    "avó",
    "avô",
    "mãe",
    "filha",
    "filho",
    "marido",
    "irmã",
    "irmão",
    "mẹ",
    "bố",
    "vợ",
    "chồng",
    "giagia",
    "pappous",
    "mitera",
    "pateras",
    "μητέρα",
    "πατέρας",
    "γιαγιά",
    "παππούς",
    "κόρη",
    "γιος",
    "σύζυγος",
    "hooyaday",
    "aabahay",
    "ayeeyaday",
    "gabadhayda",
    "wiilkayga",
    "ninkayga",
    "xaaskayga",
    // How Greek introduces and signs ("ονομάζομαι X", "Ευχαριστώ,\nX"), and the Somali and
    // Haitian Creole thanks a message signs after ("Mahadsanid.\nX", "Mèsi,\nX").
    "ονομάζομαι",
    "λέγομαι",
    "ευχαριστώ",
    "mahadsanid",
    "mèsi",
];

/// Chat verbs that put a name after them ("ping Obinna Eze", "dm rosa"): cues, and never a
/// name, in lower case only (why: "Ping" is a name too; "page" is left out, a surname typed
/// in lower case: "re: mildred page").
pub(super) const CHAT_CUES: &[&str] = &["ping", "pinged", "dm", "dmd", "dmed"];

/// Titles: after one, a surname that is also a common word is a name ("Dr. Cook").
pub(super) const TITLES: &[&str] = &[
    "mr", "mrs", "ms", "mx", "miss", "dr", "prof", "dra", "sra", "srta",
    // the other languages' ("il signor Fabbri", "Bwana Mwangi", "Encik Rahman")
    "signor", "signora", "senyor", "senyora", "sig", "dott", "bwana", "bi", "janab", "encik",
    "puan", "gng",
];

pub(super) struct Lexicon {
    first: HashSet<&'static str>,
    sur: HashSet<&'static str>,
    common: HashSet<&'static str>,
    stop: HashSet<&'static str>,
}

pub(super) static LEXICON: LazyLock<Lexicon> = LazyLock::new(|| {
    let set = |s: &'static str| -> HashSet<&'static str> {
        s.lines().map(str::trim).filter(|w| !w.is_empty()).collect()
    };
    let mut common = set(COMMON_WORDS);
    common.extend(SPANISH_COMMON);
    for n in NAMES_FIRST {
        common.remove(n);
    }
    Lexicon {
        first: set(FIRST_NAMES)
            .into_iter()
            .chain(VIRTUE_NAMES.iter().copied())
            .collect(),
        sur: set(SURNAMES),
        common,
        // Cue words are never the name they introduce (and the name-position pass looks for
        // cues among the stop words only).
        stop: STOP
            .iter()
            .chain(CUES)
            .chain(FOREIGN_STOP)
            .copied()
            .collect(),
    }
});

/// What the lexicon says of one word (looked up lower-cased, accents and apostrophes left out;
/// a hyphenated word by its parts).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct WordInfo {
    pub first: bool,
    pub sur: bool,
    pub common: bool,
    pub stop: bool,
}

impl WordInfo {
    pub(super) fn known_name(self) -> bool {
        self.first || self.sur
    }
}

impl Lexicon {
    /// `key` must be lower case.
    fn one(&self, key: &str) -> WordInfo {
        WordInfo {
            first: self.first.contains(key),
            sur: self.sur.contains(key),
            common: self.common.contains(key),
            stop: self.stop.contains(key),
        }
    }

    /// The lexicon's view of `word` (any case).
    pub(super) fn info(&self, word: &str) -> WordInfo {
        let lower = word.to_lowercase();
        // Plain ASCII letters (most words) need no folding.
        let key: String = if lower.bytes().all(|b| b.is_ascii_lowercase()) {
            lower.clone()
        } else {
            fold_ascii(&lower)
                .chars()
                .filter(|c| *c != '\'' && *c != '’')
                .collect()
        };
        if !key.contains('-') {
            let mut i = self.one(&key);
            i.stop |= !lower.is_ascii() && MARKED_STOP.contains(&lower.as_str())
                || lower == word
                    && (CHAT_CUES.contains(&key.as_str()) || LOWER_STOP.contains(&key.as_str()));
            // An unknown word in lower case shaped like an English derivation ("reachable",
            // "titrating") is a word, not a name. Capitalised, it may well be a surname
            // ("Lindqvist", "Kettering").
            if !i.known_name() && !i.common && lower == word && derived(&key, &self.common) {
                i.common = true;
            }
            // Capitalised, a verb's participle that starts a sentence ("Reassessed 2 days
            // ago", "Titrating"): no surname ends so on a dictionary verb.
            if !i.known_name()
                && !i.common
                && lower != word
                && word.chars().skip(1).all(|c| !c.is_uppercase())
                && (key.ends_with("ed") || key.ends_with("ing"))
                // "Ambulating", "Titrating": a Latinate verb's participle, whatever the small
                // dictionary holds.
                && (derived(&key, &self.common) || (key.ends_with("ating") && key.len() >= 8))
            {
                i.common = true;
            }
            return i;
        }
        // "ANA-MARIA", "AL-FARSI", "follow-up": a name when a part is one, common or a stop
        // word only when every part is.
        // One-letter parts ("x-ray", "t-cell") are no name parts.
        let parts: Vec<WordInfo> = key
            .split('-')
            .filter(|p| p.chars().count() >= 2)
            .map(|p| self.one(p))
            .collect();
        let whole = self.one(&key);
        WordInfo {
            first: whole.first || parts.iter().any(|p| p.first),
            sur: whole.sur || parts.iter().any(|p| p.sur),
            common: whole.common || parts.iter().all(|p| p.common || p.stop),
            stop: whole.stop || parts.iter().all(|p| p.stop),
        }
    }

    /// Whether the dictionary holds `word` whole ("co-pay"), not only its parts.
    pub(super) fn is_common_whole(&self, word: &str) -> bool {
        let key = word.to_lowercase();
        self.common.contains(key.as_str()) || self.stop.contains(key.as_str())
    }

    pub(super) fn is_common(&self, word: &str) -> bool {
        let i = self.info(word);
        i.common || i.stop
    }
}

/// Whether an unknown lower-case word is an English derivation: a clinical or drug ending no
/// name has ("nephritis", "losartan"), or an inflection of a word the dictionary knows
/// ("titrating" from "titrate", "reachable" from "reach"; not "xiaoling").
fn derived(key: &str, common: &HashSet<&'static str>) -> bool {
    const CLINICAL: &[&str] = &[
        "itis", "emia", "osis", "ectomy", "otomy", "scopy", "graphy", "pathy", "plasty", "ology",
        "pril", "sartan", "statin", "mab", "nib", "azole", "mycin", "cillin", "olol", "dipine",
        "tidine", "prazole", "afil", "etine", "oxacin", "tion", "sion", "ment", "ness",
    ];
    const INFLECTIONS: &[&str] = &[
        "ing", "ed", "able", "ible", "ly", "ful", "less", "ous", "ive", "ize", "ized", "ise", "er",
        "ers", "es", "s",
    ];
    if key.chars().count() < 5 {
        return false;
    }
    if CLINICAL.iter().any(|e| key.ends_with(e)) {
        return true;
    }
    // A prefixed derivation: "reassessed" from "assessed", "unscheduled" from "scheduled".
    if let Some(rest) = ["re", "un", "pre", "mis", "dis", "non", "over"]
        .iter()
        .find_map(|p| key.strip_prefix(p))
        && rest.chars().count() >= 5
        && (common.contains(rest) || derived(rest, common))
    {
        return true;
    }
    INFLECTIONS.iter().any(|e| {
        key.strip_suffix(e).is_some_and(|stem| {
            stem.len() >= 3
                && (common.contains(stem)
                    || common.contains(format!("{stem}e").as_str())
                    || stem
                        .strip_suffix(|c: char| stem.ends_with(&format!("{c}{c}")))
                        .is_some_and(|s| common.contains(s))
                    || stem
                        .strip_suffix('i')
                        .is_some_and(|s| common.contains(format!("{s}y").as_str())))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexicon_knows_names_and_words() {
        let l = &*LEXICON;
        assert!(l.info("Margaret").first);
        assert!(l.info("OKAFOR").sur || !l.info("OKAFOR").common);
        assert!(l.info("Patel").sur);
        assert!(
            l.info("María").first,
            "accents are left out for the look-up"
        );
        assert!(l.info("ANA-MARIA").first);
        assert!(l.info("O'Brien").sur);
        assert!(l.info("glucose").common);
        assert!(l.info("Friday").stop);
        assert!(l.info("follow-up").common);
        // "Grace" is both: a name in a name position, a word elsewhere.
        let g = l.info("grace");
        assert!(g.first && g.common);
        // Names SCOWL lists as words are names here.
        assert!(!l.info("maria").common);
    }
}
