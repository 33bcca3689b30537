//! Exact rational numbers.
//!
//! Score compares results for equality (is it 20?), so floating point is out:
//! `4 ÷ (1 − 4/5)` must be exactly 20. A [`Num`] is a normalised fraction of
//! two `i64`s (denominator positive, gcd 1), so equal numbers are equal
//! structs and `==`/`Hash` are plain field comparisons. Every operation is
//! checked: intermediate products use `i128`, and a result that does not fit
//! back into `i64` is [`Overflow`], never a wrap or a panic. Whole numbers,
//! by far the common case, take an `i64`-only fast path.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A result too large for the number type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("that number is too large")]
pub struct Overflow;

/// An exact rational number in lowest terms.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Num {
    n: i64,
    d: i64,
}

fn gcd_u128(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Binary gcd: no division, which is what makes fraction-heavy search fast.
fn gcd_u64(mut a: u64, mut b: u64) -> u64 {
    if a == 0 || b == 0 {
        return a | b;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

impl Num {
    /// Zero.
    pub const ZERO: Num = Num { n: 0, d: 1 };
    /// One.
    pub const ONE: Num = Num { n: 1, d: 1 };

    /// A whole number.
    pub const fn int(n: i64) -> Num {
        Num { n, d: 1 }
    }

    /// `n / d` in lowest terms; `None` when `d` is zero or the result does not fit.
    pub fn ratio(n: i64, d: i64) -> Option<Num> {
        Self::from_i128(n as i128, d as i128).ok()
    }

    fn from_i128(n: i128, d: i128) -> Result<Num, Overflow> {
        if let (Ok(n), Ok(d)) = (i64::try_from(n), i64::try_from(d)) {
            if n != i64::MIN && d != i64::MIN {
                return Self::from_i64(n, d);
            }
        }
        if d == 0 {
            return Err(Overflow);
        }
        let g = gcd_u128(n.unsigned_abs(), d.unsigned_abs()) as i128;
        let (mut n, mut d) = (n / g, d / g);
        if d < 0 {
            n = -n;
            d = -d;
        }
        Ok(Num { n: i64::try_from(n).map_err(|_| Overflow)?, d: i64::try_from(d).map_err(|_| Overflow)? })
    }

    /// Normalises `n / d` (both above `i64::MIN`, so negation cannot overflow).
    fn from_i64(n: i64, d: i64) -> Result<Num, Overflow> {
        if d == 0 {
            return Err(Overflow);
        }
        let g = gcd_u64(n.unsigned_abs(), d.unsigned_abs()) as i64;
        let (n, d) = (n / g, d / g);
        Ok(if d < 0 { Num { n: -n, d: -d } } else { Num { n, d } })
    }

    /// `(a·d ± c·b) / (b·d)` in `i64` when it fits, else in `i128`.
    fn add_sub(self, rhs: Num, negate: bool) -> Result<Num, Overflow> {
        if self.d == 1 && rhs.d == 1 {
            // Whole numbers (most of a search): no common denominator, no gcd.
            let n = if negate { self.n.checked_sub(rhs.n) } else { self.n.checked_add(rhs.n) };
            if let Some(n) = n.filter(|&n| n != i64::MIN) {
                return Ok(Num::int(n));
            }
        }
        let c = if negate { rhs.n.checked_neg() } else { Some(rhs.n) };
        let small = c.and_then(|c| {
            let ad = self.n.checked_mul(rhs.d)?;
            let cb = c.checked_mul(self.d)?;
            Some((ad.checked_add(cb)?, self.d.checked_mul(rhs.d)?))
        });
        match small {
            Some((n, d)) if n != i64::MIN => Self::from_i64(n, d),
            _ => {
                let (a, b, c, d) = (self.n as i128, self.d as i128, rhs.n as i128, rhs.d as i128);
                let c = if negate { -c } else { c };
                Self::from_i128(a * d + c * b, b * d)
            }
        }
    }

    /// The numerator (carries the sign).
    pub const fn numer(self) -> i64 {
        self.n
    }

    /// The denominator (always positive).
    pub const fn denom(self) -> i64 {
        self.d
    }

    /// Whether this is a whole number.
    pub const fn is_integer(self) -> bool {
        self.d == 1
    }

    /// The whole number, if this is one.
    pub const fn as_integer(self) -> Option<i64> {
        if self.d == 1 {
            Some(self.n)
        } else {
            None
        }
    }

    /// Whether this is below zero.
    pub const fn is_negative(self) -> bool {
        self.n < 0
    }

    /// Whether this is zero.
    pub const fn is_zero(self) -> bool {
        self.n == 0
    }

    /// `self + rhs`, checked.
    pub fn checked_add(self, rhs: Num) -> Result<Num, Overflow> {
        if self.d == 1 && rhs.d == 1 {
            return self.n.checked_add(rhs.n).map(Num::int).ok_or(Overflow);
        }
        self.add_sub(rhs, false)
    }

    /// `self − rhs`, checked.
    pub fn checked_sub(self, rhs: Num) -> Result<Num, Overflow> {
        if self.d == 1 && rhs.d == 1 {
            return self.n.checked_sub(rhs.n).map(Num::int).ok_or(Overflow);
        }
        self.add_sub(rhs, true)
    }

    /// `self × rhs`, checked.
    pub fn checked_mul(self, rhs: Num) -> Result<Num, Overflow> {
        if self.d == 1 && rhs.d == 1 {
            return self.n.checked_mul(rhs.n).map(Num::int).ok_or(Overflow);
        }
        if let (Some(n), Some(d)) = (self.n.checked_mul(rhs.n), self.d.checked_mul(rhs.d)) {
            if n != i64::MIN && d != i64::MIN {
                return Self::from_i64(n, d);
            }
        }
        let (a, b, c, d) = (self.n as i128, self.d as i128, rhs.n as i128, rhs.d as i128);
        Self::from_i128(a * c, b * d)
    }

    /// `self ÷ rhs`, checked; `None` when `rhs` is zero.
    pub fn checked_div(self, rhs: Num) -> Option<Result<Num, Overflow>> {
        if rhs.n == 0 {
            return None;
        }
        if self.d == 1 && rhs.d == 1 {
            if rhs.n != -1 && self.n % rhs.n == 0 {
                return Some(Ok(Num::int(self.n / rhs.n)));
            }
            // Below 2⁶³: the two are not both i64::MIN (that divides exactly, above).
            let g = gcd_u64(self.n.unsigned_abs(), rhs.n.unsigned_abs()) as i64;
            let (n, d) = (self.n / g, rhs.n / g);
            return Some(if d < 0 {
                match (n.checked_neg(), d.checked_neg()) {
                    (Some(n), Some(d)) => Ok(Num { n, d }),
                    _ => Err(Overflow),
                }
            } else {
                Ok(Num { n, d })
            });
        }
        if let (Some(n), Some(d)) = (self.n.checked_mul(rhs.d), self.d.checked_mul(rhs.n)) {
            if n != i64::MIN && d != i64::MIN {
                return Some(Self::from_i64(n, d));
            }
        }
        let (a, b, c, d) = (self.n as i128, self.d as i128, rhs.n as i128, rhs.d as i128);
        Some(Self::from_i128(a * d, b * c))
    }

    /// `self` raised to a whole power `exp` ≥ 0, checked.
    pub fn checked_pow(self, exp: u32) -> Result<Num, Overflow> {
        Ok(Num { n: self.n.checked_pow(exp).ok_or(Overflow)?, d: self.d.checked_pow(exp).ok_or(Overflow)? })
    }
}

impl From<i64> for Num {
    fn from(n: i64) -> Num {
        Num::int(n)
    }
}

impl PartialOrd for Num {
    fn partial_cmp(&self, other: &Num) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Num {
    fn cmp(&self, other: &Num) -> Ordering {
        (self.n as i128 * other.d as i128).cmp(&(other.n as i128 * self.d as i128))
    }
}

impl fmt::Display for Num {
    /// `7`, `-3`, `2/3`, `-5/2`: fractions stay fractions.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.d == 1 {
            write!(f, "{}", self.n)
        } else {
            write!(f, "{}/{}", self.n, self.d)
        }
    }
}

impl fmt::Debug for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Text that is not a number Score can use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("“{0}” is not a number")]
pub struct ParseNumError(pub String);

impl FromStr for Num {
    type Err = ParseNumError;

    /// Parses `7`, `-3` or `2/3` (surrounding spaces allowed).
    fn from_str(s: &str) -> Result<Num, ParseNumError> {
        let t = s.trim();
        let bad = || ParseNumError(t.to_string());
        let whole = |p: &str| -> Result<i64, ParseNumError> {
            let p = p.trim();
            if p.is_empty() || !p.trim_start_matches(['-', '−']).chars().all(|c| c.is_ascii_digit()) {
                return Err(bad());
            }
            p.replace('−', "-").parse::<i64>().map_err(|_| bad())
        };
        match t.split_once('/') {
            None => whole(t).map(Num::int),
            Some((a, b)) => Num::ratio(whole(a)?, whole(b)?).ok_or_else(bad),
        }
    }
}

impl TryFrom<String> for Num {
    type Error = ParseNumError;
    fn try_from(s: String) -> Result<Num, ParseNumError> {
        s.parse()
    }
}

impl From<Num> for String {
    fn from(n: Num) -> String {
        n.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Num {
        Num::ratio(n, d).unwrap()
    }

    #[test]
    fn fractions_are_normalised_with_sign_in_numerator() {
        assert_eq!(q(4, -6), q(-2, 3));
        assert_eq!(q(-4, -6).to_string(), "2/3");
        assert_eq!(q(0, -5), Num::ZERO);
        assert_eq!(q(10, 5).to_string(), "2");
    }

    #[test]
    fn four_divided_by_one_minus_four_fifths_is_exactly_twenty() {
        let four_fifths = Num::int(4).checked_div(Num::int(5)).unwrap().unwrap();
        let fifth = Num::ONE.checked_sub(four_fifths).unwrap();
        assert_eq!(Num::int(4).checked_div(fifth).unwrap().unwrap(), Num::int(20));
    }

    #[test]
    fn division_by_zero_is_none() {
        assert!(Num::int(3).checked_div(Num::ZERO).is_none());
        assert!(q(1, 3).checked_div(Num::ZERO).is_none());
    }

    #[test]
    fn overflow_is_an_error_not_a_wrap() {
        assert_eq!(Num::int(i64::MAX).checked_add(Num::ONE), Err(Overflow));
        assert_eq!(Num::int(i64::MIN).checked_mul(Num::int(-1)), Err(Overflow));
        assert_eq!(Num::int(i64::MIN).checked_div(Num::int(-1)), Some(Err(Overflow)));
        assert_eq!(q(1, i64::MAX).checked_mul(q(1, 2)), Err(Overflow));
        assert_eq!(Num::int(10).checked_pow(40), Err(Overflow));
    }

    #[test]
    fn mixed_arithmetic_is_exact() {
        assert_eq!(q(1, 3).checked_add(q(1, 6)).unwrap(), q(1, 2));
        assert_eq!(q(2, 3).checked_mul(Num::int(3)).unwrap(), Num::int(2));
        assert_eq!(Num::int(4).checked_div(q(2, 3)).unwrap().unwrap(), Num::int(6));
        assert_eq!(Num::int(-6).checked_div(Num::int(4)).unwrap().unwrap(), q(-3, 2));
    }

    #[test]
    fn ordering_compares_values() {
        assert!(q(1, 3) < q(1, 2));
        assert!(q(-1, 2) < Num::ZERO);
    }

    #[test]
    fn parses_whole_numbers_and_fractions() {
        assert_eq!("7".parse::<Num>().unwrap(), Num::int(7));
        assert_eq!(" -3 ".parse::<Num>().unwrap(), Num::int(-3));
        assert_eq!("4/6".parse::<Num>().unwrap(), q(2, 3));
        assert!("x".parse::<Num>().is_err());
        assert!("1/0".parse::<Num>().is_err());
        assert!("".parse::<Num>().is_err());
        assert!("1.5".parse::<Num>().is_err());
    }

    #[test]
    fn serialises_as_text() {
        let s = serde_json::to_string(&q(-2, 3)).unwrap();
        assert_eq!(s, "\"-2/3\"");
        assert_eq!(serde_json::from_str::<Num>(&s).unwrap(), q(-2, 3));
    }
}
