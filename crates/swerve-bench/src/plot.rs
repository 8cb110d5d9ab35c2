//! A log-log plot of time per step against ball count, written as SVG by hand (no plotting
//! dependency for two panels of polylines). The time plotted is the CPU time of the stepping
//! thread when measured (wall-clock otherwise): on a shared machine it is the steadier figure.

use std::fmt::Write as _;

use crate::balls::{Row, SceneKind};

const COLORS: [&str; 9] =
    ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#000000"];

/// Two panels (seed scene, pit), one polyline per algorithm, log-log axes.
pub fn render_svg(rows: &[Row]) -> String {
    let (panel_w, panel_h, margin) = (460.0f64, 340.0f64, 80.0f64);
    let width = 2.0 * (panel_w + margin) + 200.0;
    let height = panel_h + 2.0 * margin;
    let mut algorithms: Vec<&str> = Vec::new();
    for r in rows {
        if !algorithms.contains(&r.algorithm.as_str()) {
            algorithms.push(&r.algorithm);
        }
    }
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="{margin}" y="16">CPU milliseconds per step of the stepping thread (one thread) against N, log-log</text>"#
    );
    for (p, scene) in [SceneKind::Seed, SceneKind::Pit].into_iter().enumerate() {
        let pts: Vec<&Row> = rows.iter().filter(|r| r.scene == scene && r.ms_per_step.is_some()).collect();
        if pts.is_empty() {
            continue;
        }
        let x0 = margin + p as f64 * (panel_w + margin);
        let y0 = margin;
        let lx = |n: usize| (n as f64).log10();
        let ly = |ms: f64| ms.max(1e-6).log10();
        let (mut xmin, mut xmax, mut ymin, mut ymax) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for r in &pts {
            let (x, y) = (lx(r.n), ly(r.cpu_ms_per_step.or(r.ms_per_step).unwrap_or(1.0)));
            xmin = xmin.min(x);
            xmax = xmax.max(x);
            ymin = ymin.min(y);
            ymax = ymax.max(y);
        }
        let (xmin, xmax) = (xmin.floor(), xmax.ceil().max(xmin.floor() + 1.0));
        let (ymin, ymax) = (ymin.floor(), ymax.ceil().max(ymin.floor() + 1.0));
        let sx = |x: f64| x0 + (x - xmin) / (xmax - xmin) * panel_w;
        let sy = |y: f64| y0 + panel_h - (y - ymin) / (ymax - ymin) * panel_h;
        let _ = writeln!(
            svg,
            r##"<rect x="{x0}" y="{y0}" width="{panel_w}" height="{panel_h}" fill="none" stroke="#444"/>"##
        );
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{}" text-anchor="middle" font-weight="bold">{}</text>"#,
            x0 + panel_w / 2.0,
            y0 - 20.0,
            scene.title()
        );
        let mut d = xmin;
        while d <= xmax + 1e-9 {
            let _ = writeln!(
                svg,
                r##"<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#ddd"/><text x="{0}" y="{3}" text-anchor="middle">10^{4}</text>"##,
                sx(d),
                y0,
                y0 + panel_h,
                y0 + panel_h + 16.0,
                d
            );
            d += 1.0;
        }
        let mut d = ymin;
        while d <= ymax + 1e-9 {
            let _ = writeln!(
                svg,
                r##"<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#ddd"/><text x="{3}" y="{4}" text-anchor="end">10^{5} ms</text>"##,
                x0,
                sy(d),
                x0 + panel_w,
                x0 - 4.0,
                sy(d) + 4.0,
                d
            );
            d += 1.0;
        }
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{}" text-anchor="middle">balls N (log)</text>"#,
            x0 + panel_w / 2.0,
            y0 + panel_h + 34.0
        );
        for (a, alg) in algorithms.iter().enumerate() {
            let mut line: Vec<(f64, f64)> = pts
                .iter()
                .filter(|r| r.algorithm == *alg)
                .map(|r| (sx(lx(r.n)), sy(ly(r.cpu_ms_per_step.or(r.ms_per_step).unwrap_or(1.0)))))
                .collect();
            line.sort_by(|p, q| p.0.total_cmp(&q.0));
            if line.is_empty() {
                continue;
            }
            let color = COLORS[a % COLORS.len()];
            let points: Vec<String> = line.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
            let _ = writeln!(
                svg,
                r#"<polyline points="{}" fill="none" stroke="{color}" stroke-width="2"/>"#,
                points.join(" ")
            );
            for (x, y) in &line {
                let _ = writeln!(svg, r#"<circle cx="{x:.1}" cy="{y:.1}" r="3" fill="{color}"/>"#);
            }
        }
    }
    let lx = 2.0 * (panel_w + margin) + 20.0;
    for (a, alg) in algorithms.iter().enumerate() {
        let y = margin + 20.0 * a as f64;
        let color = COLORS[a % COLORS.len()];
        let _ = writeln!(
            svg,
            r#"<line x1="{lx}" y1="{y}" x2="{}" y2="{y}" stroke="{color}" stroke-width="3"/><text x="{}" y="{}">{alg}</text>"#,
            lx + 20.0,
            lx + 26.0,
            y + 4.0
        );
    }
    svg.push_str("</svg>\n");
    svg
}
