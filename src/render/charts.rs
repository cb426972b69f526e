//! Inline SVG charts drawn by the builder: no chart library and no JavaScript, readable with
//! styles off, each with a title and a text description for screen readers. Colours come from
//! the page's CSS variables, so the charts follow the light and dark themes.

use std::fmt::Write;

use super::format;

const W: f64 = 640.0;
const LEFT: f64 = 150.0;
const RIGHT: f64 = 20.0;
const ROW: f64 = 22.0;
const TOP: f64 = 6.0;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A number with fixed precision, so the same inputs give byte-identical SVG; a whole number
/// without its `.0` (most coordinates are, and every page carries hundreds of them).
fn n(x: f64) -> String {
    let s = format!("{x:.1}");
    match s.strip_suffix(".0") {
        Some("-0") => "0".to_string(),
        Some(whole) => whole.to_string(),
        None => s,
    }
}

fn open(out: &mut String, id: &str, height: f64, title: &str, desc: &str) {
    let _ = write!(
        out,
        r#"<svg class="chart" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-labelledby="{id}-t {id}-d" xmlns="http://www.w3.org/2000/svg"><title id="{id}-t">{t}</title><desc id="{id}-d">{d}</desc>"#,
        w = n(W),
        h = n(height),
        t = esc(title),
        d = esc(desc),
    );
}

/// A chart with its title and legend in HTML beside the SVG, so text wraps with the page instead of
/// being clipped at the drawing's edge.
fn boxed(title: &str, legend: &[&str], svg: &str) -> String {
    let mut out = format!(r#"<figure class="chart-box"><figcaption><h3>{}</h3>"#, esc(title));
    if !legend.is_empty() {
        out.push_str(r#"<ul class="legend">"#);
        for (slot, name) in legend.iter().enumerate() {
            let _ = write!(out, r#"<li><i class="seg{}"></i>{}</li>"#, slot % 8, esc(name));
        }
        out.push_str("</ul>");
    }
    out.push_str("</figcaption>");
    out.push_str(svg);
    out.push_str("</figure>");
    out
}

/// A round tick step (1, 2 or 5 times a power of ten) giving at most about five ticks up to `max`.
fn tick_step(max: f64) -> f64 {
    if max <= 0.0 || !max.is_finite() {
        return 1.0;
    }
    let raw = max / 5.0;
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * p).find(|s| *s >= raw).unwrap_or(10.0 * p)
}

/// Horizontal bars, one per row, for counts (the largest batch per card).
pub fn bars(id: &str, title: &str, rows: &[(String, u64)], unit: &str) -> String {
    let max = rows.iter().map(|r| r.1).max().unwrap_or(0).max(1) as f64;
    let height = TOP + ROW * rows.len() as f64 + 8.0;
    let desc: Vec<String> = rows.iter().map(|(l, v)| format!("{l}: {v} {unit}")).collect();
    let mut out = String::new();
    open(&mut out, id, height, title, &desc.join("; "));
    for (i, (label, v)) in rows.iter().enumerate() {
        let y = TOP + ROW * i as f64;
        let w = (W - LEFT - RIGHT - 60.0) * (*v as f64) / max;
        let _ = write!(
            out,
            r#"<text class="chart-label" x="{lx}" y="{ty}" text-anchor="end">{label}</text><rect class="chart-bar" x="{x}" y="{y}" width="{w}" height="{h}"/><text class="chart-value" x="{vx}" y="{ty}">{v}</text>"#,
            lx = n(LEFT - 6.0),
            ty = n(y + 14.0),
            label = esc(label),
            x = n(LEFT),
            y = n(y + 3.0),
            w = n(w),
            h = n(ROW - 6.0),
            vx = n(LEFT + w + 4.0),
        );
    }
    out.push_str("</svg>");
    boxed(title, &[], &out)
}

/// One stacked bar per row (a mode), segments in bytes, with vertical lines at each capacity (a
/// card's memory). The scale covers the largest bar and the largest line.
pub fn stacked(
    id: &str,
    title: &str,
    rows: &[(String, Vec<(String, f64)>)],
    lines: &[(String, f64)],
) -> String {
    let total = |r: &(String, Vec<(String, f64)>)| r.1.iter().map(|s| s.1.max(0.0)).sum::<f64>();
    // Scaled to the model's largest bar (a 141 GB card would make a small model's bars slivers);
    // a card's line is drawn only where it falls on that scale.
    let largest = rows.iter().map(total).fold(0.0, f64::max);
    let step = tick_step(largest * 1.05);
    let max = ((largest * 1.05 / step).ceil() * step).max(1.0);
    let plot = W - LEFT - RIGHT - 30.0;
    let height = TOP + ROW * rows.len() as f64 + 48.0;
    let desc: Vec<String> = rows
        .iter()
        .map(|(l, segs)| {
            let parts: Vec<String> = segs
                .iter()
                .filter(|s| s.1 > 0.0)
                .map(|(k, v)| format!("{k} {}", format::bytes(*v)))
                .collect();
            format!("{l}: {} ({})", format::bytes(total(&(l.clone(), segs.clone()))), parts.join(", "))
        })
        .collect();
    let mut out = String::new();
    open(&mut out, id, height, title, &desc.join("; "));
    let mut names: Vec<&str> = vec![];
    for (i, (label, segs)) in rows.iter().enumerate() {
        let y = TOP + ROW * i as f64;
        let _ = write!(
            out,
            r#"<text class="chart-label" x="{}" y="{}" text-anchor="end">{}</text>"#,
            n(LEFT - 6.0),
            n(y + 14.0),
            esc(label)
        );
        let mut x = LEFT;
        for (name, v) in segs {
            let slot = match names.iter().position(|s| s == name) {
                Some(p) => p,
                None => {
                    names.push(name);
                    names.len() - 1
                }
            };
            let w = plot * v.max(0.0) / max;
            if w > 0.0 {
                let _ = write!(
                    out,
                    r#"<rect class="seg seg{}" x="{}" y="{}" width="{}" height="{}"><title>{}: {}</title></rect>"#,
                    slot % 8,
                    n(x),
                    n(y + 3.0),
                    n(w),
                    n(ROW - 6.0),
                    esc(name),
                    format::bytes(*v)
                );
            }
            x += w;
        }
    }
    let bottom = TOP + ROW * rows.len() as f64;
    let ticks = (max / step).round() as u64;
    for k in 0..=ticks {
        let v = step * k as f64;
        let x = LEFT + plot * v / max;
        let _ = write!(
            out,
            r#"<line class="axis" x1="{x}" y1="{y1}" x2="{x}" y2="{y2}"/><text class="chart-label" x="{x}" y="{ty}" text-anchor="middle">{label}</text>"#,
            x = n(x),
            y1 = n(bottom),
            y2 = n(bottom + 4.0),
            ty = n(bottom + 16.0),
            label = if k == 0 { "0".to_string() } else { format::bytes(v) },
        );
    }
    // Card lines, their labels on two alternating rows below the ticks; a label that would touch
    // the previous one on its row is left out (the line keeps its tooltip).
    let mut last_x = [f64::NEG_INFINITY; 2];
    let mut row = 0;
    for (label, cap) in lines.iter().filter(|l| l.1 <= max) {
        let x = LEFT + plot * cap / max;
        let _ = write!(
            out,
            r#"<line class="cap" x1="{x}" y1="{y1}" x2="{x}" y2="{y2}"><title>{label}</title></line>"#,
            x = n(x),
            y1 = n(TOP - 2.0),
            y2 = n(bottom + 2.0),
            label = esc(label)
        );
        let width = 6.0 * label.chars().count() as f64;
        if x - width / 2.0 > last_x[row] + 6.0 {
            let _ = write!(
                out,
                r#"<text class="chart-cap" x="{x}" y="{ty}" text-anchor="middle">{label}</text>"#,
                x = n(x.clamp(width / 2.0, W - width / 2.0)),
                ty = n(bottom + 30.0 + 12.0 * row as f64),
                label = esc(label)
            );
            last_x[row] = x + width / 2.0;
            row = 1 - row;
        }
    }
    out.push_str("</svg>");
    boxed(title, &names, &out)
}

/// Lines of bytes against the sequence length (log-spaced x, every length labelled where there is
/// room), scaled to the series; a card's capacity is drawn only where it falls on that scale.
pub fn lines(id: &str, title: &str, series: &[(String, Vec<(u64, f64)>)], caps: &[(String, f64)]) -> String {
    let mut xs: Vec<u64> = series.iter().flat_map(|s| s.1.iter().map(|p| p.0)).collect();
    xs.sort_unstable();
    xs.dedup();
    let (xmin, xmax) =
        (xs.first().copied().unwrap_or(1).max(1) as f64, xs.last().copied().unwrap_or(2).max(2) as f64);
    let largest = series.iter().flat_map(|s| s.1.iter().map(|p| p.1)).fold(0.0, f64::max);
    let step = tick_step(largest * 1.05);
    let ymax = ((largest * 1.05 / step).ceil() * step).max(1.0);
    let (x0, x1, y0, y1) = (70.0, W - RIGHT - 70.0, 220.0, 10.0);
    let sx = |x: u64| {
        if xmax > xmin {
            x0 + (x1 - x0) * ((x as f64).ln() - xmin.ln()) / (xmax.ln() - xmin.ln())
        } else {
            x0
        }
    };
    let sy = |y: f64| y0 - (y0 - y1) * y / ymax;
    let desc: Vec<String> = series
        .iter()
        .map(|(name, pts)| {
            let p: Vec<String> =
                pts.iter().map(|(x, y)| format!("{x} tokens {}", format::bytes(*y))).collect();
            format!("{name}: {}", p.join(", "))
        })
        .collect();
    let mut out = String::new();
    open(&mut out, id, y0 + 40.0, title, &desc.join("; "));
    let _ = write!(
        out,
        r#"<line class="axis" x1="{x0}" y1="{y0}" x2="{x1}" y2="{y0}"/><line class="axis" x1="{x0}" y1="{y0}" x2="{x0}" y2="{y1}"/><text class="chart-label" x="{xm}" y="{ty}" text-anchor="middle">tokens per sample</text>"#,
        x0 = n(x0),
        x1 = n(x1),
        y0 = n(y0),
        y1 = n(y1),
        xm = n((x0 + x1) / 2.0),
        ty = n(y0 + 34.0),
    );
    let mut last = f64::NEG_INFINITY;
    for x in &xs {
        let px = sx(*x);
        let label = format::commas(*x);
        let half = 3.5 * label.len() as f64;
        let _ = write!(
            out,
            r#"<line class="axis" x1="{px}" y1="{y0}" x2="{px}" y2="{y2}"/>"#,
            px = n(px),
            y0 = n(y0),
            y2 = n(y0 + 4.0)
        );
        if px - half > last + 4.0 {
            let _ = write!(
                out,
                r#"<text class="chart-label" x="{}" y="{}" text-anchor="middle">{}</text>"#,
                n(px),
                n(y0 + 16.0),
                label
            );
            last = px + half;
        }
    }
    let ticks = (ymax / step).round() as u64;
    for k in 0..=ticks {
        let v = step * k as f64;
        let _ = write!(
            out,
            r#"<text class="chart-label" x="{}" y="{}" text-anchor="end">{}</text>"#,
            n(x0 - 6.0),
            n(sy(v) + 4.0),
            if k == 0 { "0".to_string() } else { format::bytes(v) }
        );
    }
    let mut last_y = f64::INFINITY;
    for (label, cap) in caps.iter().filter(|c| c.1 <= ymax) {
        let y = sy(*cap);
        let _ = write!(
            out,
            r#"<line class="cap" x1="{}" y1="{y}" x2="{}" y2="{y}"><title>{}</title></line>"#,
            n(x0),
            n(x1),
            esc(label),
            y = n(y)
        );
        if y < last_y - 13.0 {
            let _ = write!(
                out,
                r#"<text class="chart-cap" x="{}" y="{}">{}</text>"#,
                n(x1 + 4.0),
                n(y + 4.0),
                esc(label)
            );
            last_y = y;
        }
    }
    let mut names = vec![];
    for (slot, (name, pts)) in series.iter().enumerate() {
        let d: Vec<String> = pts.iter().map(|(x, y)| format!("{},{}", n(sx(*x)), n(sy(*y)))).collect();
        let _ = write!(
            out,
            r#"<polyline class="series seg{}" points="{}"><title>{}</title></polyline>"#,
            slot % 8,
            d.join(" "),
            esc(name)
        );
        names.push(name.as_str());
    }
    out.push_str("</svg>");
    boxed(title, &names, &out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_scale_to_the_largest_value_and_describe_every_row() {
        let svg = bars("b", "Largest batch", &[("T4".into(), 52), ("H200".into(), 717)], "samples");
        assert!(svg.contains("<svg") && svg.ends_with("</svg></figure>"));
        assert!(svg.contains("<desc id=\"b-d\">T4: 52 samples; H200: 717 samples</desc>"));
        // The largest bar spans the plot: 640 - 150 - 20 - 60 = 410 units.
        assert!(svg.contains(r#"width="410""#), "{svg}");
        // The title is HTML beside the drawing, not SVG text that the viewBox can clip.
        assert!(svg.starts_with(r#"<figure class="chart-box"><figcaption><h3>Largest batch</h3>"#), "{svg}");
    }

    #[test]
    fn stacked_bars_are_scaled_to_the_model_not_to_the_largest_card() {
        let svg = stacked(
            "s",
            "Memory at batch 1",
            &[("Full".into(), vec![("weights".into(), 1e9), ("activations".into(), 3e9)])],
            &[("T4 16 GB".into(), 16e9), ("H200 141 GB".into(), 141e9)],
        );
        // Largest bar 4 GB; 4.2 GB over five ticks gives a step of 1 GB and a scale of 5 GB over
        // 640 - 150 - 20 - 30 = 440 units: weights 1 GB = 88, activations 3 GB = 264 (whole numbers
        // are written without `.0`).
        assert!(svg.contains(r#"width="88""#) && svg.contains(r#"width="264""#), "{svg}");
        assert!(svg.contains(">5.00 GB</text>"), "the last tick is labelled: {svg}");
        assert!(svg.contains("Full: 4.00 GB (weights 1.00 GB, activations 3.00 GB)"));
        // Both cards are off that scale: no line for them.
        assert!(!svg.contains(r#"class="cap""#), "{svg}");
        // The legend is HTML, one entry per segment.
        assert!(
            svg.contains(r#"<li><i class="seg0"></i>weights</li><li><i class="seg1"></i>activations</li>"#)
        );
    }

    #[test]
    fn close_capacity_labels_do_not_overlap() {
        let svg = stacked(
            "s",
            "m",
            &[("Serve".into(), vec![("weights".into(), 100e9)])],
            &[("A 40 GB".into(), 40e9), ("B 41 GB".into(), 41e9), ("C 42 GB".into(), 42e9)],
        );
        // Three lines within 2 GB of each other on a 120 GB scale: two label rows hold two of
        // them, the third would touch the first row's label and is left to its tooltip.
        assert_eq!(svg.matches(r#"<line class="cap""#).count(), 3);
        assert_eq!(svg.matches(r#"class="chart-cap""#).count(), 2, "{svg}");
    }

    #[test]
    fn coordinates_keep_one_decimal_drop_a_whole_numbers_zero_and_never_write_minus_zero() {
        assert_eq!(n(410.0), "410");
        assert_eq!(n(29.66), "29.7");
        assert_eq!(n(-3.0), "-3");
        // -0.04 rounds to -0.0 at one decimal, which is 0.
        assert_eq!(n(-0.04), "0");
    }

    #[test]
    fn text_is_escaped() {
        let svg = bars("x", "<b>", &[("a&b".into(), 1)], "");
        assert!(svg.contains("&lt;b&gt;") && svg.contains("a&amp;b") && !svg.contains("<b>"));
    }
}
