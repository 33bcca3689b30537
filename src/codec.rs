//! How the app turns its data into text and messages, and back.
//!
//! In the browser, JSON is the browser's own (`JSON.parse`, `JSON.stringify`) and values
//! cross into and out of Rust through `serde-wasm-bindgen`, so the page carries no JSON
//! parser of its own. Natively (the app's logic tests) the same text
//! comes from `serde_json`. Either way the text is plain JSON that the other reads: stored
//! data written by one is read by the other (held to that by the wasm tests).

use serde::de::DeserializeOwned;
use serde::Serialize;

/// `value` as JSON text.
pub fn to_text<T: Serialize>(value: &T) -> Result<String, String> {
    #[cfg(target_arch = "wasm32")]
    {
        let js = value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| e.to_string())?;
        js_sys::JSON::stringify(&js).map(String::from).map_err(|_| "not representable as JSON".to_string())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        serde_json::to_string(value).map_err(|e| e.to_string())
    }
}

/// The value JSON `text` holds, if it is one of `T`.
pub fn from_text<T: DeserializeOwned>(text: &str) -> Option<T> {
    #[cfg(target_arch = "wasm32")]
    {
        serde_wasm_bindgen::from_value(js_sys::JSON::parse(text).ok()?).ok()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        serde_json::from_str(text).ok()
    }
}

/// `value` as a message for `postMessage` (a structured-cloneable object; 64-bit integers
/// travel as BigInt, so none is cut to a float's precision).
pub fn to_message<T: Serialize>(value: &T) -> Option<wasm_bindgen::JsValue> {
    let to = serde_wasm_bindgen::Serializer::new().serialize_large_number_types_as_bigints(true);
    value.serialize(&to).ok()
}

/// The value a message holds, or why it is not one of `T`.
pub fn from_message<T: DeserializeOwned>(message: wasm_bindgen::JsValue) -> Result<T, String> {
    serde_wasm_bindgen::from_value(message).map_err(|e| e.to_string())
}
