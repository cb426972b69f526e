//! Number formatting for people: the filters every template uses, so that the HTML page and the
//! Markdown twin print the same figure the same way.

use minijinja::{Environment, Value};

pub fn register(env: &mut Environment<'static>) {
    env.add_filter("commas", |v: Value| commas_value(&v));
    env.add_filter("count", |n: f64| count(n));
    env.add_filter("bytes", |n: f64| bytes(n));
    env.add_filter("gib", |n: f64| gib(n));
    env.add_filter("pct", |x: f64| pct(x));
    env.add_filter("shape", |v: Vec<u64>| shape(&v));
    env.add_filter("signed", |n: i64| signed(n));
    env.add_filter("usd", |n: f64| usd(n));
    env.add_filter("fig", |n: f64| sig3(n));
    env.add_filter("xml", |s: String| xml(&s));
}

/// Escapes text for XML (the sitemap), leaving `/` alone as XML allows.
pub fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

fn commas_value(v: &Value) -> String {
    match i64::try_from(v.clone()) {
        Ok(n) => signed_commas(n, false),
        Err(_) => v.to_string(),
    }
}

/// 278295186 -> "278,295,186".
pub fn commas(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn signed_commas(n: i64, plus: bool) -> String {
    let body = commas(n.unsigned_abs());
    match (n < 0, plus && n > 0) {
        (true, _) => format!("-{body}"),
        (false, true) => format!("+{body}"),
        _ => body,
    }
}

/// With an explicit sign: "+590,592", "-514", "0".
pub fn signed(n: i64) -> String {
    signed_commas(n, true)
}

/// Three significant figures with a unit: 278295186 -> "278M", 6738415616 -> "6.74B".
pub fn count(n: f64) -> String {
    let (v, unit) = match n.abs() {
        x if x >= 1e12 => (n / 1e12, "T"),
        x if x >= 1e9 => (n / 1e9, "B"),
        x if x >= 1e6 => (n / 1e6, "M"),
        x if x >= 1e3 => (n / 1e3, "K"),
        _ => return format!("{n:.0}"),
    };
    format!("{}{unit}", sig3(v))
}

fn sig3(v: f64) -> String {
    match v.abs() {
        x if x >= 99.95 => format!("{v:.0}"),
        x if x >= 9.995 => format!("{v:.1}"),
        _ => format!("{v:.2}"),
    }
}

/// Dollars: "$0.35", "$12.40", "$1,234".
pub fn usd(n: f64) -> String {
    if n.abs() >= 100.0 { format!("${}", commas(n.round().max(0.0) as u64)) } else { format!("${n:.2}") }
}

/// Decimal units, as card memory is sold: 5490526003 -> "5.49 GB", 18948096 -> "19 MB".
pub fn bytes(n: f64) -> String {
    match n.abs() {
        x if x >= 1e11 => format!("{:.0} GB", n / 1e9),
        x if x >= 1e8 => format!("{:.2} GB", n / 1e9),
        x if x >= 1e6 => format!("{:.0} MB", n / 1e6),
        x if x >= 1e3 => format!("{:.0} kB", n / 1e3),
        _ => format!("{n:.0} B"),
    }
}

/// Binary gigabytes with two decimals ("151.92 GiB"), as `torch.cuda.max_memory_allocated`
/// readings are usually quoted.
pub fn gib(n: f64) -> String {
    format!("{:.2} GiB", n / (1u64 << 30) as f64)
}

/// A signed percentage: "-0.21%", "+0.0004%", "0%".
pub fn pct(x: f64) -> String {
    if x == 0.0 {
        "0%".into()
    } else if x.abs() < 0.01 {
        format!("{x:+.4}%")
    } else {
        format!("{x:+.2}%")
    }
}

/// [514, 768] -> "514 × 768".
pub fn shape(v: &[u64]) -> String {
    v.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(" × ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_read_as_the_seed_prints_them() {
        assert_eq!(commas(278_885_778), "278,885,778");
        assert_eq!(commas(514), "514");
        assert_eq!(signed(-590_592), "-590,592");
        assert_eq!(count(277_432_320.0), "277M");
        assert_eq!(count(22_713_216.0), "22.7M");
        assert_eq!(count(6_738_415_616.0), "6.74B");
        assert_eq!(bytes(5_490_526_003.0), "5.49 GB");
        assert_eq!(bytes(769_294_233.0), "0.77 GB");
        assert_eq!(bytes(18_948_096.0), "19 MB");
        assert_eq!(pct(-0.5211), "-0.52%");
        assert_eq!(shape(&[514, 768]), "514 × 768");
    }
}
