use wasm_bindgen::prelude::*;

/// A newtype that represents Serde errors as JavaScript exceptions.
#[derive(Debug)]
pub struct Error(JsValue);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        #[wasm_bindgen]
        extern "C" {
            #[wasm_bindgen(js_name = String)]
            pub fn to_string(value: &JsValue) -> String;
        }

        to_string(&self.0).fmt(f)
    }
}

impl std::error::Error for Error {}

impl Error {
    /// Creates a JavaScript `Error` with a given message.
    pub fn new<T: std::fmt::Display>(msg: T) -> Self {
        Error(JsError::new(&msg.to_string()).into())
    }
}

impl serde::ser::Error for Error {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Error::new(msg)
    }
}

impl serde::de::Error for Error {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Error::new(msg)
    }

    fn invalid_type(unexp: serde::de::Unexpected, exp: &dyn serde::de::Expected) -> Self {
        Error::new(format_args!("invalid type: {}, expected {}", kind(&unexp), exp))
    }

    fn invalid_value(unexp: serde::de::Unexpected, exp: &dyn serde::de::Expected) -> Self {
        Error::new(format_args!("invalid value: {}, expected {}", kind(&unexp), exp))
    }

    fn unknown_variant(variant: &str, _expected: &'static [&'static str]) -> Self {
        Error::new(format_args!("unknown variant `{}`", variant))
    }

    fn unknown_field(field: &str, _expected: &'static [&'static str]) -> Self {
        Error::new(format_args!("unknown field `{}`", field))
    }
}

/// What an unexpected value was, without the value: serde's own wording formats it, and
/// formatting a float links the standard library's float printing.
fn kind(unexp: &serde::de::Unexpected) -> &'static str {
    use serde::de::Unexpected::*;
    match unexp {
        Bool(_) => "a boolean",
        Unsigned(_) | Signed(_) | Float(_) => "a number",
        Char(_) | Str(_) => "a string",
        Bytes(_) => "bytes",
        Unit => "null",
        Option => "an option",
        NewtypeStruct => "a newtype struct",
        Seq => "a sequence",
        Map => "a map",
        Enum => "an enum",
        UnitVariant => "a unit variant",
        NewtypeVariant => "a newtype variant",
        TupleVariant => "a tuple variant",
        StructVariant => "a struct variant",
        Other(_) => "another kind of value",
    }
}

/// This conversion is needed for `?` to just work when using wasm-bindgen
/// imports that return JavaScript exceptions as `Result<T, JsValue>`.
impl From<JsValue> for Error {
    fn from(error: JsValue) -> Error {
        Error(error)
    }
}

// This conversion is needed for `?` to just work in wasm-bindgen exports
// that return `Result<T, JsValue>` to throw JavaScript exceptions.
impl From<Error> for JsValue {
    fn from(error: Error) -> JsValue {
        error.0
    }
}
