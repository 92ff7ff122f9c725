//! Type-first decoding of the two internally tagged payload enums,
//! [`ResponseItem`](crate::models::ResponseItem) and [`EventMsg`](crate::event::EventMsg):
//! read the payload's `type`, then decode that variant straight from the same bytes.
//!
//! Serde's derive for an internally tagged enum (`#[serde(tag = "type")]`) cannot know the
//! variant before it has seen the tag, so it first buffers the whole payload into its private
//! `Content` tree and then decodes the variant from that tree: every payload is read twice and
//! every map and list of it allocated twice. Codex writes the tag first, so here the tag is read
//! first and the variant's fields are decoded directly from the JSON.
//!
//! How the variant is decoded without a second, hand-written copy of the variant list: each
//! enum is declared once, inside `type_first_enum!`, which emits the enum unchanged (its
//! derives, and so its wire format, schema and TypeScript, are exactly what they were) and a
//! *twin*: the same variants with the same attributes, derived as serde's externally tagged
//! `remote` definition of the enum. Serde's `remote` derive builds the real enum's variants
//! itself (a field added, renamed or retyped in the one declaration is in both), and an
//! externally tagged enum decodes its variant from any [`Deserializer`] that offers
//! `(tag, entries)`; `sealed::ByTag` offers exactly that: the tag read first and the
//! remaining entries of the payload map with every `type` key removed, which is what serde's
//! `Content` path gives the variant too (so `#[serde(flatten)]` maps never see `type`, and a
//! repeated `type` is refused as a duplicate, as the derive refuses it). The only attribute
//! the twin does not inherit is the container's `rename_all`, which it restates
//! (`snake_case`); a test checks every tag of the generated schema against it.
//!
//! The derived path stays the reference: [`decode`] falls back to it whenever the direct path
//! does not decode (an unknown tag, which the derive reads as the `Other` variant; a payload
//! that is not an object or whose `type` is not a string; any error), so results and error
//! messages are the derive's own.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::value::{BorrowedStrDeserializer, StrDeserializer, StringDeserializer};
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, IgnoredAny, MapAccess,
    VariantAccess, Visitor,
};

/// A payload enum with a type-first decoder: [`ResponseItem`](crate::models::ResponseItem)
/// and [`EventMsg`](crate::event::EventMsg) (each declared through `type_first_enum!`, which
/// implements it).
pub trait TypeFirst: DeserializeOwned + sealed::Sealed {}

/// Decodes one payload (a JSON object) into `T`: type-first when it can, otherwise through
/// the derived deserializer, so the result is always what `serde_json::from_str` gives.
pub fn decode<T: TypeFirst>(text: &str) -> Result<T, serde_json::Error> {
    decode_direct(text).or_else(|_| serde_json::from_str(text))
}

/// Decodes one payload type-first only, without the derived fallback: `Err` when the tag is
/// unknown, missing or not a string, or the variant does not decode. The `type` key may be at
/// any position (a first `type` is read in the same pass, a later one is found by a scan
/// first). For comparing the two paths; readers call [`decode`].
pub fn decode_direct<T: TypeFirst>(text: &str) -> Result<T, serde_json::Error> {
    from_str_seed(text, PayloadSeed::<T>::tag_first()).or_else(|err| match peek_tag(text) {
        Some(tag) => from_str_seed(text, PayloadSeed::<T>::with_tag(&tag)),
        None => Err(err),
    })
}

/// The `type` tag of a JSON object, wherever it is; `None` when the text is not an object,
/// has no string `type`, or has it twice.
pub(crate) fn peek_tag(text: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Tagged {
        #[serde(rename = "type")]
        tag: Option<String>,
    }
    serde_json::from_str::<Tagged>(text)
        .ok()
        .and_then(|tagged| tagged.tag)
}

/// Runs `seed` over the whole of `text` (trailing characters are an error).
fn from_str_seed<'de, S: DeserializeSeed<'de>>(
    text: &'de str,
    seed: S,
) -> Result<S::Value, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = seed.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// Decodes a payload of `T` from a deserializer positioned at it. Without a known tag the
/// payload's first key must be `type` (an error otherwise, so the caller takes a slower
/// path); with one, the whole map is read and its `type` entries skipped.
pub(crate) struct PayloadSeed<'t, T> {
    tag: Option<&'t str>,
    marker: PhantomData<T>,
}

impl<T> PayloadSeed<'static, T> {
    /// The seed for a payload whose first key is its tag.
    pub(crate) fn tag_first() -> Self {
        PayloadSeed {
            tag: None,
            marker: PhantomData,
        }
    }
}

impl<'t, T> PayloadSeed<'t, T> {
    /// The seed for a payload whose tag was found beforehand.
    fn with_tag(tag: &'t str) -> Self {
        PayloadSeed {
            tag: Some(tag),
            marker: PhantomData,
        }
    }
}

impl<'de, T: TypeFirst> DeserializeSeed<'de> for PayloadSeed<'_, T> {
    type Value = T;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, T: TypeFirst> Visitor<'de> for PayloadSeed<'_, T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object with a `type`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        if let Some(tag) = self.tag {
            return T::decode_entries(tag, sealed::Entries::new(map, false));
        }
        match map.next_key::<Text<'de>>()? {
            Some(Text(key)) if key == "type" => {
                let Text(tag) = map.next_value()?;
                T::decode_entries(&tag, sealed::Entries::new(map, true))
            }
            _ => Err(de::Error::custom("`type` is not the first key")),
        }
    }
}

/// A string of the input (an object key or the tag), borrowed unless it held escapes.
pub(crate) struct Text<'a>(pub(crate) Cow<'a, str>);

impl<'de> serde::Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;

        impl<'de> Visitor<'de> for TextVisitor {
            type Value = Text<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }

            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Borrowed(v)))
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
        }

        deserializer.deserialize_str(TextVisitor)
    }
}

/// The adapter between a payload map and a twin enum. Its items are public only so that the
/// crate-private `type_first_enum!` expansions and the sealed trait can name them.
pub(crate) mod sealed {
    use super::*;

    /// Decodes `Self` from the entries of its payload once the tag is known; implemented by
    /// `type_first_enum!` through the enum's twin.
    pub trait Sealed: Sized {
        /// Decodes the variant named `tag` from `entries`.
        fn decode_entries<'de, A: MapAccess<'de>>(
            tag: &str,
            entries: Entries<A>,
        ) -> Result<Self, A::Error>;
    }

    /// The entries of a payload map without its `type` keys: the first is skipped (or was
    /// read already), a second is a duplicate field, as for serde's internally tagged derive.
    #[derive(Debug)]
    pub struct Entries<A> {
        map: A,
        tag_seen: bool,
    }

    impl<A> Entries<A> {
        pub(crate) fn new(map: A, tag_seen: bool) -> Self {
            Entries { map, tag_seen }
        }
    }

    impl<'de, A: MapAccess<'de>> MapAccess<'de> for Entries<A> {
        type Error = A::Error;

        fn next_key_seed<K: DeserializeSeed<'de>>(
            &mut self,
            seed: K,
        ) -> Result<Option<K::Value>, A::Error> {
            loop {
                let Some(Text(key)) = self.map.next_key::<Text<'de>>()? else {
                    return Ok(None);
                };
                if key == "type" {
                    if self.tag_seen {
                        return Err(de::Error::duplicate_field("type"));
                    }
                    self.tag_seen = true;
                    self.map.next_value::<IgnoredAny>()?;
                    continue;
                }
                return match key {
                    Cow::Borrowed(key) => seed.deserialize(BorrowedStrDeserializer::new(key)),
                    Cow::Owned(key) => seed.deserialize(StringDeserializer::new(key)),
                }
                .map(Some);
            }
        }

        fn next_value_seed<V: DeserializeSeed<'de>>(
            &mut self,
            seed: V,
        ) -> Result<V::Value, A::Error> {
            self.map.next_value_seed(seed)
        }
    }

    /// Presents `(tag, entries)` as an externally tagged enum value to a twin's `remote`
    /// deserializer.
    #[derive(Debug)]
    pub(crate) struct ByTag<'t, A> {
        tag: &'t str,
        entries: Entries<A>,
    }

    impl<'t, A> ByTag<'t, A> {
        pub(crate) fn new(tag: &'t str, entries: Entries<A>) -> Self {
            ByTag { tag, entries }
        }
    }

    impl<'de, A: MapAccess<'de>> Deserializer<'de> for ByTag<'_, A> {
        type Error = A::Error;

        fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, A::Error> {
            Err(de::Error::custom(
                "a tagged payload decodes only into an enum",
            ))
        }

        fn deserialize_enum<V: Visitor<'de>>(
            self,
            _name: &'static str,
            _variants: &'static [&'static str],
            visitor: V,
        ) -> Result<V::Value, A::Error> {
            visitor.visit_enum(self)
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
            byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map struct
            identifier ignored_any
        }
    }

    impl<'de, A: MapAccess<'de>> EnumAccess<'de> for ByTag<'_, A> {
        type Error = A::Error;
        type Variant = Entries<A>;

        fn variant_seed<V: DeserializeSeed<'de>>(
            self,
            seed: V,
        ) -> Result<(V::Value, Entries<A>), A::Error> {
            let variant = seed.deserialize(StrDeserializer::<A::Error>::new(self.tag))?;
            Ok((variant, self.entries))
        }
    }

    impl<'de, A: MapAccess<'de>> VariantAccess<'de> for Entries<A> {
        type Error = A::Error;

        // Like the derive's unit variant: any other entries are read and ignored.
        fn unit_variant(mut self) -> Result<(), A::Error> {
            while self.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok(())
        }

        fn newtype_variant_seed<T: DeserializeSeed<'de>>(
            self,
            seed: T,
        ) -> Result<T::Value, A::Error> {
            seed.deserialize(EntriesDeserializer(self))
        }

        fn tuple_variant<V: Visitor<'de>>(
            self,
            _len: usize,
            _visitor: V,
        ) -> Result<V::Value, A::Error> {
            Err(de::Error::custom("a tagged payload has no tuple variants"))
        }

        fn struct_variant<V: Visitor<'de>>(
            self,
            _fields: &'static [&'static str],
            visitor: V,
        ) -> Result<V::Value, A::Error> {
            visitor.visit_map(self)
        }
    }

    /// The entries as a map value (the inner struct of a newtype variant).
    #[derive(Debug)]
    pub(crate) struct EntriesDeserializer<A>(Entries<A>);

    impl<'de, A: MapAccess<'de>> Deserializer<'de> for EntriesDeserializer<A> {
        type Error = A::Error;

        fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
            visitor.visit_map(self.0)
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
            byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map struct
            enum identifier ignored_any
        }
    }
}

/// Declares a payload enum once and derives its type-first decoder from the same tokens.
///
/// The input is the enum exactly as it would be written (attributes, variants, fields), with
/// the twin's name and the enum's name as a string in front, and the `#[serde(other)]`
/// fallback variant after an `@fallback` marker (an externally tagged enum has no such
/// variant; the derived path reads unknown tags). See the module docs for why.
macro_rules! type_first_enum {
    (
        twin $twin:ident = $remote:literal;
        $(#[$attr:meta])*
        pub enum $name:ident {
            $(
                $(#[$vattr:meta])*
                $variant:ident $( ( $inner:ty ) )? $( { $($fields:tt)* } )?,
            )*
            @fallback
            $(#[$oattr:meta])*
            $other:ident,
        }
    ) => {
        $(#[$attr])*
        pub enum $name {
            $(
                $(#[$vattr])*
                $variant $( ( $inner ) )? $( { $($fields)* } )?,
            )*
            $(#[$oattr])*
            $other,
        }

        /// The externally tagged twin of the enum above, read by its type-first decoder
        /// (see `crate::type_first`); never built, only its `remote` deserializer is used.
        // The TS derive only makes the variants' `#[ts]` attributes legal here.
        #[derive(serde::Deserialize, ts_rs::TS)]
        #[serde(remote = $remote, rename_all = "snake_case")]
        #[allow(dead_code)]
        enum $twin {
            $(
                $(#[$vattr])*
                $variant $( ( $inner ) )? $( { $($fields)* } )?,
            )*
        }

        impl $crate::type_first::TypeFirst for $name {}

        impl $crate::type_first::sealed::Sealed for $name {
            fn decode_entries<'de, A: serde::de::MapAccess<'de>>(
                tag: &str,
                entries: $crate::type_first::sealed::Entries<A>,
            ) -> Result<Self, A::Error> {
                $twin::deserialize($crate::type_first::sealed::ByTag::new(tag, entries))
            }
        }
    };
}

pub(crate) use type_first_enum;

#[cfg(test)]
#[path = "type_first_tests.rs"]
mod tests;
