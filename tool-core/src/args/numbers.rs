//! A number held to a bound or a `multipleOf` exactly: integers as integers, and for a
//! multiple, other numbers as the shortest decimals that are these doubles (as JSON writes
//! them), their digits divided as integers. A quotient of two doubles cannot say it: `0.3 /
//! 0.1` is not a whole double, and past 2^53 every quotient is one. Written here: it is a few
//! lines of integer arithmetic, where a decimal crate would be a dependency for one division.

use std::cmp::Ordering;

use serde_json::Value;

/// Whether `number` is a whole multiple of `step`: as integers when both are, else as
/// decimals ([`is_multiple_of`]).
pub(super) fn is_multiple(number: &serde_json::Number, step: &Value) -> bool {
    if let (Some(n), Some(step)) = (whole(number), step.as_number().and_then(whole))
        && step != 0
    {
        return n % step == 0;
    }
    match (number.as_f64(), step.as_f64()) {
        (Some(n), Some(step)) => is_multiple_of(n, step),
        _ => true,
    }
}

/// Whether two numbers are the same number, as JSON Schema compares them for `enum`, `const`
/// and `uniqueItems`: by value, whichever way each is written (`1` is `1.0`), and exactly.
pub(super) fn same(a: &serde_json::Number, b: &serde_json::Number) -> bool {
    match (whole(a), whole(b)) {
        (Some(a), Some(b)) => a == b,
        (Some(n), None) => b.as_f64().is_some_and(|b| is_whole(b, n)),
        (None, Some(n)) => a.as_f64().is_some_and(|a| is_whole(a, n)),
        (None, None) => a.as_f64() == b.as_f64(),
    }
}

/// Whether the double `x` is the integer `n`, without rounding either.
fn is_whole(x: f64, n: i128) -> bool {
    // Every integer a JSON number is read as lies within an `i128`, and so must `x` to be one.
    x.fract() == 0.0 && x.abs() < 1e38 && x as i128 == n
}

/// A number written as a key that the same numbers share ([`same`]) and no others: the
/// integer's digits for a whole number, else its double's shortest form in scientific
/// notation (short for `1e308` too).
pub(super) fn key(number: &serde_json::Number) -> String {
    match whole(number) {
        Some(n) => n.to_string(),
        None => match number.as_f64() {
            Some(x) if x.fract() == 0.0 && x.abs() < 1e38 => (x as i128).to_string(),
            Some(x) => format!("{x:e}"),
            None => number.to_string(),
        },
    }
}

/// Whether `number`, read as a double, has no fraction: `3` read as `3.0` by the tree, one
/// written with a fraction or an exponent (`3.0`, `1e3`), or an integer past what 64 bits hold
/// (the tree's numbers are serde_json's, which reads those as doubles; serde, reading the text
/// into a 128-bit integer, reads it exactly).
pub(super) fn is_whole_double(number: &serde_json::Number) -> bool {
    number.as_f64().is_some_and(|n| n.fract() == 0.0)
}

/// The least magnitude at which doubles are a whole number apart: a number written with a
/// fraction (`4503599627370496.5`) reads as a whole double there, so past it a whole double
/// is not known to be a whole number, nor the one written.
pub(super) const FRACTION_LOST: f64 = 4_503_599_627_370_496.0;

/// `number`, a double, as the integer it is, when it has no fraction and is below 2^52
/// ([`FRACTION_LOST`]), where a whole double is the whole number written.
pub(super) fn whole_double(number: &serde_json::Number) -> Option<i64> {
    let n = number.as_f64().filter(|_| number.is_f64())?;
    (n.fract() == 0.0 && n.abs() < FRACTION_LOST).then_some(n as i64)
}

/// Takes `number`, written with a fraction or an exponent (`3.0`, `1e3`) where `types` (a
/// schema's) says `integer`, as the integer it is ([`whole_double`]): JSON Schema's `integer`
/// is any number without a fraction, where serde reads an integer type from integers written
/// as such alone. Past 2^52 the double read may be another number than the one written, so it
/// is not taken for an integer ([`past_exact`] says so). Whether `number` was changed.
#[inline]
pub(super) fn written_whole(number: &mut serde_json::Number, types: Option<&Value>) -> bool {
    let integer = |name: &Value| name == "integer";
    match types {
        Some(Value::Array(names)) if names.iter().any(integer) => {}
        Some(name) if integer(name) => {}
        _ => return false,
    }
    whole_double(number)
        .map(|whole| *number = whole.into())
        .is_some()
}

/// What a fault adds for a whole number past 2^52 written with a fraction or an exponent,
/// where an integer is expected.
pub(super) const PAST_EXACT: &str = ", which, written with a fraction or an exponent, may not \
                                     be the integer meant past 2^52: write the integer in \
                                     digits alone";

/// What a fault adds for the double at the least `i64`, where that is the least the range
/// takes: serde_json reads an integer below it, written in digits, as a double, and a few
/// such round to it.
pub(super) const AT_I64_MIN: &str = ", which, if written in digits, is below \
                                     -9223372036854775808 (the least i64), and if written \
                                     with a fraction or an exponent, may not be the integer \
                                     meant past 2^52: write an integer in range in digits alone";

/// What a fault adds for a number out of an integer type's range.
pub(super) const OUT_OF_RANGE: &str = ", which is out of range";

/// What serde_json says of a number past what a 64-bit float holds (`1e400`, 400 digits), where
/// it reads no number at all.
pub(super) const BEYOND_DOUBLE: &str = "number out of range";

/// How many characters of a number as sent a fault repeats: a number may be as long as the
/// arguments.
pub(super) const NUMBER_SHOWN: usize = 40;

/// What a fault adds for `number`, which no integer in `min..=max` is: that it is out of
/// range, or, for a whole double past 2^52 that would be within it, that written with a
/// fraction or an exponent it may not be the integer meant (the tree cannot tell how a
/// number so large was written), or at the least `i64`, that it may also be an integer
/// below it.
#[cold]
pub(super) fn past_exact(number: &serde_json::Number, (min, max): (i128, i128)) -> &'static str {
    const LEAST: f64 = i64::MIN as f64;
    match number.as_f64() {
        Some(LEAST) if number.is_f64() && min == i128::from(i64::MIN) => AT_I64_MIN,
        // The range is never wider than 64 bits, so `as` (which saturates) keeps it apart.
        Some(n)
            if number.is_f64()
                && is_whole_double(number)
                && n.abs() >= FRACTION_LOST
                && (min..=max).contains(&(n as i128)) =>
        {
            PAST_EXACT
        }
        _ => OUT_OF_RANGE,
    }
}

/// `number` as an integer, when it is written as one.
pub(super) fn whole(number: &serde_json::Number) -> Option<i128> {
    (number.as_i64().map(i128::from)).or_else(|| number.as_u64().map(i128::from))
}

/// How `number` compares with `bound`, exactly when both are integers: for numbers past what
/// a double holds exactly, which the checker meets seldom.
#[cold]
pub(super) fn compared(number: &serde_json::Number, bound: &Value) -> Option<Ordering> {
    match (whole(number), bound.as_number().and_then(whole)) {
        (Some(n), Some(bound)) => Some(n.cmp(&bound)),
        _ => number.as_f64()?.partial_cmp(&bound.as_f64()?),
    }
}

/// The least magnitude at which a double no longer holds every integer: an integer this large
/// may have lost digits on its way to `f64`.
pub(super) const INEXACT: f64 = 9_007_199_254_740_992.0;

/// Whether `n` is a whole multiple of `step`: as integers when doubles hold both whole, else
/// as decimals: `0.3` of `0.1`, `10000000.01` of `0.01`, not `10000000.005`. A `step` of zero,
/// which no schema may have, holds for every number.
pub(super) fn is_multiple_of(n: f64, step: f64) -> bool {
    if step == 0.0 {
        return true;
    }
    if n.fract() == 0.0 && step.fract() == 0.0 && n.abs() < INEXACT && step.abs() < INEXACT {
        // Both whole, and held exactly by doubles: as 64-bit integers, as most are.
        return (n as i64) % (step as i64) == 0;
    }
    let (Some((n, n_exponent)), Some((step, step_exponent))) = (decimal(n), decimal(step)) else {
        return false;
    };
    if n == 0 {
        return true;
    }
    match u32::try_from(n_exponent - step_exponent) {
        // n / step = n·10^k / step: whole when step divides n·2^k·5^k, so when what is left of
        // step, once up to k twos and k fives are taken out of it, divides n.
        Ok(k) => {
            let mut left = step.abs();
            for factor in [2, 5] {
                let mut taken = 0;
                while taken < k && left % factor == 0 {
                    left /= factor;
                    taken += 1;
                }
            }
            n % left == 0
        }
        // n has digits finer than step's: n / (step·10^k), whole when that divides n (a
        // divisor past 128 bits is larger than n's 17 digits).
        Err(_) => {
            let k = step_exponent - n_exponent;
            (u32::try_from(k).ok())
                .and_then(|k| 10i128.checked_pow(k))
                .and_then(|power| step.checked_mul(power))
                .is_some_and(|divisor| n % divisor == 0)
        }
    }
}

/// `n` as digits and a power of ten, `digits × 10^exponent`, from its shortest decimal; `None`
/// for infinities and NaN, which JSON cannot hold.
fn decimal(n: f64) -> Option<(i128, i32)> {
    if !n.is_finite() {
        return None;
    }
    // Shortest round-trip digits, as `1.0000000005e7`.
    let written = format!("{n:e}");
    let (mantissa, exponent) = written.split_once('e')?;
    let exponent: i32 = exponent.parse().ok()?;
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: i128 = format!("{whole}{fraction}").parse().ok()?;
    Some((digits, exponent - i32::try_from(fraction.len()).ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_number_written_with_a_fraction_is_the_integer_it_is() {
        // Whether the number was changed, and how the tree then holds it.
        let whole = |text: &str| {
            let mut number: serde_json::Number = serde_json::from_str(text).unwrap();
            let changed = written_whole(&mut number, Some(&"integer".into()));
            let held = if number.is_f64() {
                "f64".to_owned()
            } else {
                number.to_string()
            };
            (changed, held)
        };
        let taken = |integer: &str| (true, integer.to_owned());
        assert_eq!(whole("3.0"), taken("3"));
        assert_eq!(whole("-0.0"), taken("0"));
        assert_eq!(whole("1e3"), taken("1000"));
        assert_eq!(whole("-4503599627370495.0"), taken("-4503599627370495"));
        // Not whole, or written as an integer already: as sent.
        assert_eq!(whole("3.5"), (false, "f64".to_owned()));
        assert_eq!(whole("3"), (false, "3".to_owned()));
        // Past where a fraction is kept, or past 64 bits: as sent.
        for past in [
            "4503599627370496.5",
            "9007199254740993.0",
            "1e19",
            "-9223372036854775809",
        ] {
            assert_eq!(whole(past), (false, "f64".to_owned()), "{past}");
        }
        let number = |text: &str| serde_json::from_str::<serde_json::Number>(text).unwrap();
        let u64_range = (0, u64::MAX.into());
        assert!(past_exact(&number("1e19"), u64_range).contains("digits alone"));
        for beyond in ["1e20", "18446744073709551616", "-1.0"] {
            let said = past_exact(&number(beyond), u64_range);
            assert_eq!(said, ", which is out of range", "{beyond}");
        }
        // Digits just below the least i64 read as the double at it, as one written so does.
        let i64_range = (i64::MIN.into(), i64::MAX.into());
        for at_least in [
            "-9223372036854775809",
            "-9223372036854775808.0",
            "-9.223372036854775808e18",
        ] {
            assert_eq!(
                past_exact(&number(at_least), i64_range),
                AT_I64_MIN,
                "{at_least}"
            );
        }
        assert_eq!(
            past_exact(&number("-9.3e18"), i64_range),
            ", which is out of range"
        );
        assert_eq!(past_exact(&number("-9.2e18"), i64_range), PAST_EXACT);
    }

    #[test]
    fn decimals_divide_as_written() {
        for (n, step, holds) in [
            (0.3, 0.1, true),
            (1.1, 0.1, true),
            (-0.75, 0.25, true),
            (10000000.01, 0.01, true),
            (10000000.005, 0.01, false),
            (5000000001.0, 5.0, false),
            (5000000000.0, 5.0, true),
            (1e20, 0.5, true),
            (1.5e20, 1e20, false),
            (0.5, 1e-300, true),
            (1e-300, 0.5, false),
            (3e10, 7e-30, false),
            (2.1e10, 7e-30, true),
            (1e-30, 2e-31, true),
            (1e-30, 3e-31, false),
            (7.0, 0.0, true),
        ] {
            assert_eq!(is_multiple_of(n, step), holds, "{n} of {step}");
        }
    }

    #[test]
    fn numbers_are_the_same_by_value_and_exactly() {
        let number = |text: &str| serde_json::from_str::<serde_json::Number>(text).unwrap();
        for (a, b, holds) in [
            ("1", "1.0", true),
            ("-0.0", "0", true),
            ("2.5", "2.50", true),
            ("9007199254740993", "9007199254740992.0", false),
            ("9007199254740992", "9007199254740992.0", true),
            ("18446744073709551615", "-1", false),
            ("1e300", "1e300", true),
            ("0.1", "0.10000000000000001", true),
            ("0.1", "0.2", false),
        ] {
            let (a, b) = (number(a), number(b));
            assert_eq!(same(&a, &b), holds, "{a} and {b}");
            assert_eq!(key(&a) == key(&b), holds, "{a} and {b}, as keys");
        }
    }
}
