//! Small serde adapters shared by the event payloads.

use base64::Engine;
use serde::Deserialize;
use serde::Deserializer;
use serde::Serializer;

/// Reads `null` as the type's default, for list fields that some writers spelled `null`
/// instead of omitting or writing `[]`.
pub(crate) fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

/// Raw bytes on the wire as standard base64 (with padding): command output is not always
/// UTF-8, and JSON strings must be.
pub(crate) mod base64_bytes {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(bytes: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&base64::engine::general_purpose::STANDARD.encode(bytes))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<u8>, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        base64::engine::general_purpose::STANDARD
            .decode(text.as_bytes())
            .map_err(serde::de::Error::custom)
    }
}
