//! Text to tokens: words (folded: lowercase, accents removed), numbers (with an ordinal
//! suffix taken in: "3rd", "1º"), punctuation, and one `\n` token per line break. Every token
//! keeps its byte span in the text, so a phrase is always quoted from the text as written.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Word,
    Num,
    Punct,
}

#[derive(Debug, Clone, Copy)]
pub struct Token {
    pub start: usize,
    pub end: usize,
    pub kind: Kind,
    /// The folded text: `norm.0..norm.1` in [`Tokens::buf`].
    norm: (u32, u32),
    /// A number's value (saturating), 0 for other tokens.
    pub value: u32,
    /// How many digits a number was written with.
    pub digits: u8,
    /// "3rd", "15th", "1º".
    pub ordinal: bool,
    /// The first letter is a capital.
    pub capital: bool,
}

pub struct Tokens {
    pub toks: Vec<Token>,
    buf: String,
}

impl Tokens {
    pub fn norm(&self, i: usize) -> &str {
        self.toks
            .get(i)
            .map(|t| &self.buf[t.norm.0 as usize..t.norm.1 as usize])
            .unwrap_or("")
    }
    pub fn len(&self) -> usize {
        self.toks.len()
    }
    /// Token `i` starts right where token `i - 1` ends (no space between).
    pub fn glued(&self, i: usize) -> bool {
        i > 0 && i < self.toks.len() && self.toks[i].start == self.toks[i - 1].end
    }
    pub fn is_punct(&self, i: usize, c: &str) -> bool {
        self.toks.get(i).is_some_and(|t| t.kind == Kind::Punct) && self.norm(i) == c
    }
}

/// Lowercase `c` without its accent into `out` ("Ä" → "a", "ß" → "ss", "Ñ" → "n").
fn fold(c: char, out: &mut String) {
    let base = match c {
        'á' | 'à' | 'â' | 'ä' | 'ã' | 'å' | 'Á' | 'À' | 'Â' | 'Ä' | 'Ã' | 'Å' => 'a',
        'é' | 'è' | 'ê' | 'ë' | 'É' | 'È' | 'Ê' | 'Ë' => 'e',
        'í' | 'ì' | 'î' | 'ï' | 'Í' | 'Ì' | 'Î' | 'Ï' => 'i',
        'ó' | 'ò' | 'ô' | 'ö' | 'õ' | 'Ó' | 'Ò' | 'Ô' | 'Ö' | 'Õ' => 'o',
        'ú' | 'ù' | 'û' | 'ü' | 'Ú' | 'Ù' | 'Û' | 'Ü' => 'u',
        'ñ' | 'Ñ' => 'n',
        'ç' | 'Ç' => 'c',
        'ß' => {
            out.push_str("ss");
            return;
        }
        '’' => '\'',
        c if c.is_ascii() => c.to_ascii_lowercase(),
        c => {
            out.extend(c.to_lowercase());
            return;
        }
    };
    out.push(base);
}

pub fn lex(text: &str) -> Tokens {
    let mut toks = Vec::with_capacity(text.len() / 4);
    let mut buf = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    let mut it = text.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        if c.is_whitespace() {
            let mut nl = c == '\n';
            while let Some(&(_, d)) = it.peek() {
                if !d.is_whitespace() {
                    break;
                }
                nl |= d == '\n';
                it.next();
            }
            if nl {
                let s = buf.len() as u32;
                buf.push('\n');
                toks.push(Token {
                    start: i,
                    end: i + 1,
                    kind: Kind::Punct,
                    norm: (s, s + 1),
                    value: 0,
                    digits: 0,
                    ordinal: false,
                    capital: false,
                });
            }
            continue;
        }
        let s = buf.len() as u32;
        if c.is_ascii_digit() {
            let mut end = i + 1;
            let mut value: u32 = c as u32 - '0' as u32;
            let mut digits = 1u8;
            buf.push(c);
            while let Some(&(j, d)) = it.peek() {
                if !d.is_ascii_digit() {
                    break;
                }
                value = value
                    .saturating_mul(10)
                    .saturating_add(d as u32 - '0' as u32);
                digits = digits.saturating_add(1);
                buf.push(d);
                end = j + 1;
                it.next();
            }
            // An ordinal suffix is part of the number: "3rd", "21st", "1º".
            let mut ordinal = false;
            let rest = &bytes[end..];
            let suffix = |s: &[u8]| {
                rest.len() >= 2
                    && rest[..2].eq_ignore_ascii_case(s)
                    && !rest.get(2).is_some_and(|b| b.is_ascii_alphanumeric())
            };
            if [b"st", b"nd", b"rd", b"th"].iter().any(|s| suffix(*s)) {
                ordinal = true;
                it.next();
                it.next();
                end += 2;
            } else if let Some(&(j, d)) = it.peek()
                && matches!(d, 'º' | 'ª')
            {
                ordinal = true;
                it.next();
                end = j + d.len_utf8();
            }
            toks.push(Token {
                start: i,
                end,
                kind: Kind::Num,
                norm: (s, buf.len() as u32),
                value,
                digits,
                ordinal,
                capital: false,
            });
            continue;
        }
        if c.is_alphabetic() {
            let mut end = i + c.len_utf8();
            fold(c, &mut buf);
            while let Some(&(j, d)) = it.peek() {
                let apostrophe = matches!(d, '\'' | '’')
                    && text[j + d.len_utf8()..]
                        .chars()
                        .next()
                        .is_some_and(char::is_alphabetic);
                if !(d.is_alphabetic() || apostrophe) {
                    break;
                }
                fold(d, &mut buf);
                end = j + d.len_utf8();
                it.next();
            }
            toks.push(Token {
                start: i,
                end,
                kind: Kind::Word,
                norm: (s, buf.len() as u32),
                value: 0,
                digits: 0,
                ordinal: false,
                capital: c.is_uppercase(),
            });
            continue;
        }
        buf.push(c);
        toks.push(Token {
            start: i,
            end: i + c.len_utf8(),
            kind: Kind::Punct,
            norm: (s, buf.len() as u32),
            value: 0,
            digits: 0,
            ordinal: false,
            capital: false,
        });
    }
    Tokens { toks, buf }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_folded_numbers_keep_their_ordinals_and_spans_point_into_the_text() {
        let text = "Bis Mañana, 3rd Übermorgen 1º o’clock\n\n2pm";
        let t = lex(text);
        let norms: Vec<&str> = (0..t.len()).map(|i| t.norm(i)).collect();
        assert_eq!(
            norms,
            [
                "bis",
                "manana",
                ",",
                "3",
                "ubermorgen",
                "1",
                "o'clock",
                "\n",
                "2",
                "pm"
            ]
        );
        assert!(t.toks[0].capital && t.toks[3].ordinal && t.toks[5].ordinal);
        assert_eq!(&text[t.toks[3].start..t.toks[3].end], "3rd");
        assert_eq!(&text[t.toks[5].start..t.toks[5].end], "1º");
        assert!(t.glued(9) && !t.glued(8));
    }
}
