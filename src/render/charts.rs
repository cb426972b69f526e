//! Inline SVG charts drawn by the builder: no chart library and no JavaScript, readable with
//! styles off, each with a title and a text description for screen readers. Colours come from
//! the page's CSS variables, so the charts follow the light and dark themes.

use std::fmt::Write;

use super::format;

const W: f64 = 640.0;
const LEFT: f64 = 150.0;
const RIGHT: f64 = 20.0;
const ROW: f64 = 22.0;
const TOP: f64 = 28.0;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A number with fixed precision, so the same inputs give byte-identical SVG.
fn n(x: f64) -> String {
    format!("{x:.1}")
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

/// Horizontal bars, one per row, for counts (the largest batch per card).
pub fn bars(id: &str, title: &str, rows: &[(String, u64)], unit: &str) -> String {
    let max = rows.iter().map(|r| r.1).max().unwrap_or(0).max(1) as f64;
    let height = TOP + ROW * rows.len() as f64 + 8.0;
    let desc: Vec<String> = rows.iter().map(|(l, v)| format!("{l}: {v} {unit}")).collect();
    let mut out = String::new();
    open(&mut out, id, height, title, &desc.join("; "));
    let _ = write!(out, r#"<text class="chart-title" x="0" y="16">{}</text>"#, esc(title));
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
    out
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
    let max = rows.iter().map(total).chain(lines.iter().map(|l| l.1)).fold(1.0, f64::max);
    let plot = W - LEFT - RIGHT;
    let legend_h = 18.0;
    let height = TOP + ROW * rows.len() as f64 + legend_h + 40.0;
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
    let _ = write!(out, r#"<text class="chart-title" x="0" y="16">{}</text>"#, esc(title));
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
    for (label, cap) in lines {
        let x = LEFT + plot * cap / max;
        let _ = write!(
            out,
            r#"<line class="cap" x1="{x}" y1="{y1}" x2="{x}" y2="{y2}"/><text class="chart-cap" x="{x}" y="{ty}" text-anchor="{anchor}">{label}</text>"#,
            anchor = if x > W - 80.0 { "end" } else { "middle" },
            x = n(x),
            y1 = n(TOP - 2.0),
            y2 = n(bottom + 2.0),
            ty = n(bottom + 14.0),
            label = esc(label)
        );
    }
    let ly = bottom + 34.0;
    let mut lx = 0.0;
    for (slot, name) in names.iter().enumerate() {
        let _ = write!(
            out,
            r#"<rect class="seg seg{}" x="{}" y="{}" width="10" height="10"/><text class="chart-legend" x="{}" y="{}">{}</text>"#,
            slot % 8,
            n(lx),
            n(ly - 9.0),
            n(lx + 14.0),
            n(ly),
            esc(name)
        );
        lx += 24.0 + 6.5 * name.chars().count() as f64;
    }
    out.push_str("</svg>");
    out
}

/// Lines of bytes against the sequence length (log-spaced x), with horizontal capacity lines.
pub fn lines(id: &str, title: &str, series: &[(String, Vec<(u64, f64)>)], caps: &[(String, f64)]) -> String {
    let xs: Vec<u64> = series.iter().flat_map(|s| s.1.iter().map(|p| p.0)).collect();
    let (xmin, xmax) = (
        xs.iter().copied().min().unwrap_or(1).max(1) as f64,
        xs.iter().copied().max().unwrap_or(2).max(2) as f64,
    );
    let ymax = series
        .iter()
        .flat_map(|s| s.1.iter().map(|p| p.1))
        .chain(caps.iter().map(|c| c.1))
        .fold(1.0, f64::max);
    let (x0, x1, y0, y1) = (70.0, W - RIGHT - 60.0, 240.0, 30.0);
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
    open(&mut out, id, 290.0, title, &desc.join("; "));
    let _ = write!(out, r#"<text class="chart-title" x="0" y="16">{}</text>"#, esc(title));
    let _ = write!(
        out,
        r#"<line class="axis" x1="{x0}" y1="{y0}" x2="{x1}" y2="{y0}"/><line class="axis" x1="{x0}" y1="{y0}" x2="{x0}" y2="{y1}"/><text class="chart-label" x="{x0}" y="{ty}" text-anchor="middle">{xmin}</text><text class="chart-label" x="{x1}" y="{ty}" text-anchor="middle">{xmax} tokens</text><text class="chart-label" x="{lx}" y="{ly}" text-anchor="end">{ymax}</text><text class="chart-label" x="{lx}" y="{y0}" text-anchor="end">0</text>"#,
        x0 = n(x0),
        x1 = n(x1),
        y0 = n(y0),
        y1 = n(y1),
        ty = n(y0 + 16.0),
        xmin = xmin as u64,
        xmax = xmax as u64,
        lx = n(x0 - 6.0),
        ly = n(y1 + 4.0),
        ymax = format::bytes(ymax),
    );
    for (label, cap) in caps {
        let y = sy(*cap);
        let _ = write!(
            out,
            r#"<line class="cap" x1="{}" y1="{y}" x2="{}" y2="{y}"/><text class="chart-cap" x="{}" y="{}">{}</text>"#,
            n(x0),
            n(x1),
            n(x1 + 4.0),
            n(y + 4.0),
            esc(label),
            y = n(y)
        );
    }
    let mut lx = x0;
    for (slot, (name, pts)) in series.iter().enumerate() {
        let d: Vec<String> = pts.iter().map(|(x, y)| format!("{},{}", n(sx(*x)), n(sy(*y)))).collect();
        let _ = write!(
            out,
            r#"<polyline class="series seg{}" points="{}"><title>{}</title></polyline>"#,
            slot % 8,
            d.join(" "),
            esc(name)
        );
        let _ = write!(
            out,
            r#"<rect class="seg seg{}" x="{}" y="{}" width="10" height="10"/><text class="chart-legend" x="{}" y="{}">{}</text>"#,
            slot % 8,
            n(lx),
            n(272.0),
            n(lx + 14.0),
            n(281.0),
            esc(name)
        );
        lx += 24.0 + 6.5 * name.chars().count() as f64;
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_scale_to_the_largest_value_and_describe_every_row() {
        let svg = bars("b", "Largest batch", &[("T4".into(), 52), ("H200".into(), 717)], "samples");
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert!(svg.contains("<desc id=\"b-d\">T4: 52 samples; H200: 717 samples</desc>"));
        // The largest bar spans the plot: 640 - 150 - 20 - 60 = 410 units.
        assert!(svg.contains(r#"width="410.0""#), "{svg}");
    }

    #[test]
    fn stacked_segments_add_up_and_capacity_lines_are_drawn() {
        let svg = stacked(
            "s",
            "Memory at batch 1",
            &[("Full".into(), vec![("weights".into(), 1e9), ("activations".into(), 3e9)])],
            &[("T4 16 GB".into(), 16e9)],
        );
        // Scale: 16 GB over 470 units; weights 1 GB = 29.4, activations 3 GB = 88.1.
        assert!(svg.contains(r#"width="29.4""#) && svg.contains(r#"width="88.1""#), "{svg}");
        assert!(svg.contains("Full: 4.00 GB (weights 1.00 GB, activations 3.00 GB)"));
        assert!(svg.contains(r#"class="cap""#) && svg.contains("T4 16 GB"));
    }

    #[test]
    fn text_is_escaped() {
        let svg = bars("x", "<b>", &[("a&b".into(), 1)], "");
        assert!(svg.contains("&lt;b&gt;") && svg.contains("a&amp;b") && !svg.contains("<b>"));
    }
}
