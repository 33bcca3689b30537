//! QR codes for a class room's links, drawn on the page that shows them: the invite (on
//! the projector, at the address the teacher chose) and the host link (on request, for the
//! teacher's own phone). Drawn here, no server is asked which room codes exist, and the
//! host token never leaves the page. Only the room's module calls this, so the solitaire
//! page's first load carries none of it.

use qrcode::render::svg::Color;
use qrcode::QrCode;

/// `text` as a QR code in SVG (black on white, at least 240 px square, a quiet zone
/// around it); none if it is too long for a QR code.
pub fn svg(text: &str) -> Option<String> {
    let code = QrCode::new(text.as_bytes()).ok()?;
    let drawn =
        code.render::<Color>().min_dimensions(240, 240).dark_color(Color("#000")).light_color(Color("#fff")).build();
    // The XML declaration means nothing inside an HTML page.
    let start = drawn.find("<svg")?;
    Some(drawn[start..].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_is_drawn_as_an_svg_of_its_modules() {
        let a = svg("http://192.168.1.20:8080/?room=K7QM3X").unwrap();
        assert!(a.starts_with("<svg") && a.ends_with("</svg>"), "{a}");
        assert!(a.contains("width="), "{a}");
        // Another link, another drawing.
        assert_ne!(a, svg("http://192.168.1.20:8080/?room=K7QM3Y").unwrap());
    }

    #[test]
    fn a_text_too_long_for_any_qr_code_is_none() {
        assert_eq!(svg(&"x".repeat(8000)), None);
    }
}
