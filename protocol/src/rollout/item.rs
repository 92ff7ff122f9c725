//! [`RolloutItem`]: what one rollout line records, selected by the line's `type`.
//!
//! Known kinds: the five classic ones (`session_meta`, `response_item`, `compacted`,
//! `turn_context`, `event_msg`), the typed newer ones (`token_usage_record`, `world_state`,
//! `inter_agent_communication`, `inter_agent_communication_metadata`,
//! `dynamic_tools_updated`) and three whose shape upstream does not pin down
//! (`retained_context`, `security_risk_score`, `realtime_item`), which are kept as their exact
//! payload text. Any other kind (0.171's `id_allocation` among them) is kept as
//! [`RolloutItem::Unknown`] with its tag and exact payload text, never dropped, so a file
//! loaded and written back still holds it.

use schemars::JsonSchema;
use serde::de::{DeserializeSeed, Error as _};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;
use ts_rs::TS;

use super::compacted::CompactedItem;
use super::dynamic_tools::DynamicToolsUpdated;
use super::inter_agent::{InterAgentCommunication, InterAgentCommunicationMetadata};
use super::raw_json::RawJson;
use super::session_meta::SessionMetaLine;
use super::token_usage_record::TokenUsageRecord;
use super::turn_context::TurnContextItem;
use super::world_state::WorldStateItem;
use crate::event::EventMsg;
use crate::models::ResponseItem;
use crate::type_first::{self, PayloadSeed};

/// One recorded fact of a session file.
///
/// On the wire it is `{"type": "<tag>", "payload": {...}}`, flattened into the line envelope
/// (see [`super::RolloutLine`]). Serde is hand-written so that unknown tags survive; the
/// schema and TypeScript derives describe the five modelled kinds.
#[derive(Debug, Clone, PartialEq, JsonSchema, TS)]
#[serde(tag = "type", content = "payload", rename_all = "snake_case")]
#[ts(tag = "type", content = "payload", rename_all = "snake_case")]
pub enum RolloutItem {
    // The large, rare kinds are boxed so that every item (nearly all are response items and
    // events) stays small to move and store; doc comments here feed the generated schema.
    /// Thread metadata; the first line of a file.
    SessionMeta(Box<SessionMetaLine>),
    /// An item of model history.
    ResponseItem(ResponseItem),
    /// A compaction and its replacement history.
    Compacted(Box<CompactedItem>),
    /// Per-turn settings snapshot.
    TurnContext(Box<TurnContextItem>),
    /// A persisted event.
    EventMsg(EventMsg),
    /// A message between agents of a multi-agent thread.
    InterAgentCommunication(Box<InterAgentCommunication>),
    /// Whether the agent message on the next line starts a turn of its recipient.
    InterAgentCommunicationMetadata(InterAgentCommunicationMetadata),
    /// The usage of one model response.
    TokenUsageRecord(Box<TokenUsageRecord>),
    /// The environment the model is told about, whole or as a delta.
    WorldState(Box<WorldStateItem>),
    /// The tools a client gave the thread, as they are from this line on.
    DynamicToolsUpdated(Box<DynamicToolsUpdated>),
    /// Context retained for the model across history changes (shape not pinned; kept as
    /// written).
    RetainedContext(
        #[schemars(with = "Value")]
        #[ts(type = "unknown")]
        RawJson,
    ),
    /// A security risk assessment (shape not pinned; kept as written).
    SecurityRiskScore(
        #[schemars(with = "Value")]
        #[ts(type = "unknown")]
        RawJson,
    ),
    /// A model-invisible fact of a realtime session (shape not pinned; kept as written).
    RealtimeItem(
        #[schemars(with = "Value")]
        #[ts(type = "unknown")]
        RawJson,
    ),
    /// A line kind this model does not know, kept verbatim.
    #[serde(skip)]
    #[ts(skip)]
    Unknown(UnknownRolloutItem),
}

/// A rollout line of a kind the model does not know (newer than every kind above).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRolloutItem {
    /// The line's `type`.
    pub tag: String,
    /// The line's `payload`, exactly as written; `None` if the line had no payload.
    pub payload: Option<RawJson>,
}

/// Line kinds Codex's reader knows that this model keeps as [`RolloutItem::Unknown`]:
/// `id_allocation` (0.171).
const READ_BY_CODEX_UNMODELLED: [&str; 1] = ["id_allocation"];

/// The line kinds the model knows, by wire tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KnownTag {
    SessionMeta,
    ResponseItem,
    Compacted,
    TurnContext,
    EventMsg,
    InterAgentCommunication,
    InterAgentCommunicationMetadata,
    TokenUsageRecord,
    WorldState,
    DynamicToolsUpdated,
    RetainedContext,
    SecurityRiskScore,
    RealtimeItem,
}

/// How a scan decodes the payloads of `response_item` and `event_msg` lines (every other kind
/// has one decoder). The parser tries them in this order and keeps the first scan that
/// succeeds; the last is serde's derive, so a line the direct paths cannot read gets exactly
/// the derive's result or error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PayloadPath {
    /// Type-first in the same pass; the payload's first key must be `type` (as every Codex
    /// writer puts it), or the scan fails.
    TagFirst,
    /// Type-first from the payload's text, its `type` found anywhere by a scan first.
    TagAnywhere,
    /// Serde's derived, internally tagged deserializers (the reference).
    Derived,
}

impl KnownTag {
    pub(crate) fn from_tag(tag: &str) -> Option<Self> {
        Some(match tag {
            "session_meta" => KnownTag::SessionMeta,
            "response_item" => KnownTag::ResponseItem,
            "compacted" => KnownTag::Compacted,
            "turn_context" => KnownTag::TurnContext,
            "event_msg" => KnownTag::EventMsg,
            "inter_agent_communication" => KnownTag::InterAgentCommunication,
            "inter_agent_communication_metadata" => KnownTag::InterAgentCommunicationMetadata,
            "token_usage_record" => KnownTag::TokenUsageRecord,
            "world_state" => KnownTag::WorldState,
            "dynamic_tools_updated" => KnownTag::DynamicToolsUpdated,
            "retained_context" => KnownTag::RetainedContext,
            "security_risk_score" => KnownTag::SecurityRiskScore,
            "realtime_item" => KnownTag::RealtimeItem,
            _ => return None,
        })
    }

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            KnownTag::SessionMeta => "session_meta",
            KnownTag::ResponseItem => "response_item",
            KnownTag::Compacted => "compacted",
            KnownTag::TurnContext => "turn_context",
            KnownTag::EventMsg => "event_msg",
            KnownTag::InterAgentCommunication => "inter_agent_communication",
            KnownTag::InterAgentCommunicationMetadata => "inter_agent_communication_metadata",
            KnownTag::TokenUsageRecord => "token_usage_record",
            KnownTag::WorldState => "world_state",
            KnownTag::DynamicToolsUpdated => "dynamic_tools_updated",
            KnownTag::RetainedContext => "retained_context",
            KnownTag::SecurityRiskScore => "security_risk_score",
            KnownTag::RealtimeItem => "realtime_item",
        }
    }

    /// Decodes a payload of this kind from any deserializer.
    pub(crate) fn decode<'de, D: Deserializer<'de>>(
        self,
        payload: D,
    ) -> Result<RolloutItem, D::Error> {
        Ok(match self {
            KnownTag::SessionMeta => {
                RolloutItem::SessionMeta(Box::new(SessionMetaLine::deserialize(payload)?))
            }
            KnownTag::ResponseItem => {
                RolloutItem::ResponseItem(ResponseItem::deserialize(payload)?)
            }
            KnownTag::Compacted => {
                RolloutItem::Compacted(Box::new(CompactedItem::deserialize(payload)?))
            }
            KnownTag::TurnContext => {
                RolloutItem::TurnContext(Box::new(TurnContextItem::deserialize(payload)?))
            }
            KnownTag::EventMsg => RolloutItem::EventMsg(EventMsg::deserialize(payload)?),
            KnownTag::InterAgentCommunication => RolloutItem::InterAgentCommunication(Box::new(
                InterAgentCommunication::deserialize(payload)?,
            )),
            KnownTag::InterAgentCommunicationMetadata => {
                RolloutItem::InterAgentCommunicationMetadata(
                    InterAgentCommunicationMetadata::deserialize(payload)?,
                )
            }
            KnownTag::TokenUsageRecord => {
                RolloutItem::TokenUsageRecord(Box::new(TokenUsageRecord::deserialize(payload)?))
            }
            KnownTag::WorldState => {
                RolloutItem::WorldState(Box::new(WorldStateItem::deserialize(payload)?))
            }
            KnownTag::DynamicToolsUpdated => RolloutItem::DynamicToolsUpdated(Box::new(
                DynamicToolsUpdated::deserialize(payload)?,
            )),
            KnownTag::RetainedContext => {
                RolloutItem::RetainedContext(RawJson::deserialize(payload)?)
            }
            KnownTag::SecurityRiskScore => {
                RolloutItem::SecurityRiskScore(RawJson::deserialize(payload)?)
            }
            KnownTag::RealtimeItem => RolloutItem::RealtimeItem(RawJson::deserialize(payload)?),
        })
    }

    /// Decodes a payload of this kind from any deserializer, the two tagged payload enums
    /// along `path`.
    pub(crate) fn decode_by<'de, D: Deserializer<'de>>(
        self,
        payload: D,
        path: PayloadPath,
    ) -> Result<RolloutItem, D::Error> {
        match (self, path) {
            (KnownTag::ResponseItem, PayloadPath::TagFirst) => PayloadSeed::tag_first()
                .deserialize(payload)
                .map(RolloutItem::ResponseItem),
            (KnownTag::EventMsg, PayloadPath::TagFirst) => PayloadSeed::tag_first()
                .deserialize(payload)
                .map(RolloutItem::EventMsg),
            (KnownTag::ResponseItem | KnownTag::EventMsg, PayloadPath::TagAnywhere) => {
                let raw = <&RawValue>::deserialize(payload)?;
                self.decode_direct(raw.get()).map_err(D::Error::custom)
            }
            _ => self.decode(payload),
        }
    }

    /// Decodes a `response_item` or `event_msg` payload type-first only.
    fn decode_direct(self, text: &str) -> Result<RolloutItem, serde_json::Error> {
        match self {
            KnownTag::ResponseItem => {
                type_first::decode_direct(text).map(RolloutItem::ResponseItem)
            }
            KnownTag::EventMsg => type_first::decode_direct(text).map(RolloutItem::EventMsg),
            _ => Err(serde_json::Error::custom("not a tagged payload kind")),
        }
    }

    /// Decodes a payload of this kind from its whole text: type-first where it can, with the
    /// derive's result and error otherwise.
    pub(crate) fn decode_text(self, text: &str) -> Result<RolloutItem, serde_json::Error> {
        match self {
            KnownTag::ResponseItem => type_first::decode(text).map(RolloutItem::ResponseItem),
            KnownTag::EventMsg => type_first::decode(text).map(RolloutItem::EventMsg),
            _ => {
                let mut deserializer = serde_json::Deserializer::from_str(text);
                let item = self.decode(&mut deserializer)?;
                deserializer.end()?;
                Ok(item)
            }
        }
    }

    /// Whether the payload of this kind is kept as its raw text (no typed model).
    fn is_opaque(self) -> bool {
        matches!(
            self,
            KnownTag::RetainedContext | KnownTag::SecurityRiskScore | KnownTag::RealtimeItem
        )
    }

    /// The item of an opaque kind holding `payload` verbatim.
    fn opaque(self, payload: RawJson) -> Option<RolloutItem> {
        Some(match self {
            KnownTag::RetainedContext => RolloutItem::RetainedContext(payload),
            KnownTag::SecurityRiskScore => RolloutItem::SecurityRiskScore(payload),
            KnownTag::RealtimeItem => RolloutItem::RealtimeItem(payload),
            _ => return None,
        })
    }
}

impl From<SessionMetaLine> for RolloutItem {
    fn from(meta: SessionMetaLine) -> Self {
        RolloutItem::SessionMeta(Box::new(meta))
    }
}

impl RolloutItem {
    /// The wire `type` of the line that carries this item.
    pub fn tag(&self) -> &str {
        match self {
            RolloutItem::SessionMeta(_) => KnownTag::SessionMeta.as_str(),
            RolloutItem::ResponseItem(_) => KnownTag::ResponseItem.as_str(),
            RolloutItem::Compacted(_) => KnownTag::Compacted.as_str(),
            RolloutItem::TurnContext(_) => KnownTag::TurnContext.as_str(),
            RolloutItem::EventMsg(_) => KnownTag::EventMsg.as_str(),
            RolloutItem::InterAgentCommunication(_) => KnownTag::InterAgentCommunication.as_str(),
            RolloutItem::InterAgentCommunicationMetadata(_) => {
                KnownTag::InterAgentCommunicationMetadata.as_str()
            }
            RolloutItem::TokenUsageRecord(_) => KnownTag::TokenUsageRecord.as_str(),
            RolloutItem::WorldState(_) => KnownTag::WorldState.as_str(),
            RolloutItem::DynamicToolsUpdated(_) => KnownTag::DynamicToolsUpdated.as_str(),
            RolloutItem::RetainedContext(_) => KnownTag::RetainedContext.as_str(),
            RolloutItem::SecurityRiskScore(_) => KnownTag::SecurityRiskScore.as_str(),
            RolloutItem::RealtimeItem(_) => KnownTag::RealtimeItem.as_str(),
            RolloutItem::Unknown(unknown) => &unknown.tag,
        }
    }

    /// Whether Codex's own reader (0.169, 0.171) keeps this item when it loads the file, as
    /// it counts the items it keeps when it names an implicit turn `rollout-<index>`. It skips
    /// what it cannot parse, which this model keeps: a line kind it does not know, a
    /// `response_item` of a type it does not know (the retired `ghost_snapshot` among them)
    /// and a `turn_context` of the classic shape (`sandbox_policy: {"mode": ...}`, written by
    /// Codex 0.4x and 0.5x). An `event_msg` this model does not know counts (it cannot tell
    /// one Codex knows from one it does not).
    pub fn is_read_by_codex(&self) -> bool {
        match self {
            RolloutItem::Unknown(unknown) => {
                READ_BY_CODEX_UNMODELLED.contains(&unknown.tag.as_str())
            }
            RolloutItem::ResponseItem(ResponseItem::Other) => false,
            RolloutItem::TurnContext(context) => {
                let policy = &context.sandbox_policy;
                !(policy.get("mode").is_some() && policy.get("type").is_none())
            }
            _ => true,
        }
    }

    /// True for a line kind this model does not know.
    pub fn is_unknown(&self) -> bool {
        matches!(self, RolloutItem::Unknown(_))
    }

    /// The session meta line this item is, when it is one.
    pub fn session_meta(&self) -> Option<&SessionMetaLine> {
        match self {
            RolloutItem::SessionMeta(meta) => Some(meta),
            _ => None,
        }
    }

    /// The turn context this item is, when it is one.
    pub fn turn_context(&self) -> Option<&TurnContextItem> {
        match self {
            RolloutItem::TurnContext(context) => Some(context),
            _ => None,
        }
    }

    /// Whether the item records what a client was shown of a turn's items: an
    /// `item_completed` event or a legacy `user_message` event (a file without either
    /// recorded none, and a reader must rebuild them from the model's items).
    pub fn records_client_items(&self) -> bool {
        matches!(
            self,
            RolloutItem::EventMsg(EventMsg::ItemCompleted(_) | EventMsg::UserMessage(_))
        )
    }

    /// Writes the `type` and `payload` entries into a map being serialized (the envelope
    /// writer puts them between `timestamp`/`ordinal` and any sibling keys).
    pub(crate) fn serialize_entries<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        map.serialize_entry("type", self.tag())?;
        match self {
            RolloutItem::SessionMeta(meta) => map.serialize_entry("payload", meta),
            RolloutItem::ResponseItem(item) => map.serialize_entry("payload", item),
            RolloutItem::Compacted(item) => map.serialize_entry("payload", item),
            RolloutItem::TurnContext(item) => map.serialize_entry("payload", item),
            RolloutItem::EventMsg(event) => map.serialize_entry("payload", event),
            RolloutItem::InterAgentCommunication(item) => map.serialize_entry("payload", item),
            RolloutItem::InterAgentCommunicationMetadata(item) => {
                map.serialize_entry("payload", item)
            }
            RolloutItem::TokenUsageRecord(item) => map.serialize_entry("payload", item),
            RolloutItem::WorldState(item) => map.serialize_entry("payload", item),
            RolloutItem::DynamicToolsUpdated(item) => map.serialize_entry("payload", item),
            RolloutItem::RetainedContext(raw)
            | RolloutItem::SecurityRiskScore(raw)
            | RolloutItem::RealtimeItem(raw) => map.serialize_entry("payload", raw),
            RolloutItem::Unknown(unknown) => match &unknown.payload {
                Some(payload) => map.serialize_entry("payload", payload),
                None => Ok(()),
            },
        }
    }

    /// Builds an item from a tag and a decoded payload (the slow, generic path used by
    /// `Deserialize`; the line parser decodes from the raw text instead).
    pub fn from_tag_and_value(
        tag: &str,
        payload: Option<Value>,
    ) -> Result<Self, serde_json::Error> {
        match (KnownTag::from_tag(tag), payload) {
            // A `Value` cannot be deserialized into raw text; encode it instead.
            (Some(known), Some(payload)) if known.is_opaque() => known
                .opaque(RawJson::from_value(&payload)?)
                .ok_or_else(|| serde_json::Error::custom("opaque kind without raw form")),
            (Some(known), Some(payload)) => known.decode(payload),
            (Some(known), None) => Err(serde_json::Error::custom(format!(
                "`{}` item has no payload",
                known.as_str()
            ))),
            (None, payload) => Ok(RolloutItem::Unknown(UnknownRolloutItem {
                tag: tag.to_string(),
                payload: payload.as_ref().map(RawJson::from_value).transpose()?,
            })),
        }
    }
}

impl Serialize for RolloutItem {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        self.serialize_entries(&mut map)?;
        map.end()
    }
}

impl<'de> Deserialize<'de> for RolloutItem {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        let Value::Object(mut map) = value else {
            return Err(D::Error::custom("rollout item must be a JSON object"));
        };
        let tag = match map.remove("type") {
            Some(Value::String(tag)) => tag,
            Some(_) => return Err(D::Error::custom("rollout item `type` must be a string")),
            None => return Err(D::Error::missing_field("type")),
        };
        RolloutItem::from_tag_and_value(&tag, map.remove("payload")).map_err(D::Error::custom)
    }
}
