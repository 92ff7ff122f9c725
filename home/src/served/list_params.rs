//! What `thread/list` refuses before it lists, in the order and the words of Codex's own
//! server (0.171, measured by sending it each bad combination): thread ids that are not UUIDs,
//! more than 100 included ids, an originator filter (which only a hosted backend has),
//! `includeAttachedThreads` without a search term, and filters that exclude each other.

use codex_app_server_protocol::v2::ThreadListParams;
use codex_app_server_protocol::{INVALID_PARAMS_ERROR_CODE, INVALID_REQUEST_ERROR_CODE};
use uuid::Uuid;

/// The most ids `includedThreadIds` may name.
const MAX_INCLUDED: usize = 100;

/// Why `thread/list` refuses its params, in Codex's words.
#[derive(Debug, thiserror::Error)]
pub enum ListParamsError {
    /// More than 100 included ids.
    #[error("includedThreadIds accepts at most 100 entries")]
    TooManyIncluded,
    /// A thread id that is not a UUID; `which` names the filter as Codex does.
    #[error("invalid {which} id: {error}")]
    BadThreadId {
        /// The filter: "included thread", "excluded thread", "parent thread", "ancestor
        /// thread" or "attached thread parent".
        which: &'static str,
        /// Why the text is not a UUID.
        error: uuid::Error,
    },
    /// A non-empty originator list: only hosted backends filter by originator.
    #[error("originator filtering is not supported by the local app-server")]
    Originators,
    /// `includeAttachedThreads` with no search term (or one of spaces).
    #[error("includeAttachedThreads requires a non-empty searchTerm")]
    AttachedWithoutSearch,
    /// Both `parentThreadId` and `ancestorThreadId`.
    #[error("parentThreadId and ancestorThreadId are mutually exclusive")]
    ParentAndAncestor,
    /// `attachedToThreadId` with `parentThreadId` or `ancestorThreadId`.
    #[error("attachedToThreadId cannot be combined with parentThreadId or ancestorThreadId")]
    AttachedAndParent,
}

impl ListParamsError {
    /// The JSON-RPC code Codex answers the refusal with: invalid params for the id lists and
    /// the originators, invalid request for the rest.
    pub(crate) fn code(&self) -> i64 {
        match self {
            Self::TooManyIncluded | Self::Originators => INVALID_PARAMS_ERROR_CODE,
            Self::BadThreadId { which, .. }
                if matches!(*which, "included thread" | "excluded thread") =>
            {
                INVALID_PARAMS_ERROR_CODE
            }
            _ => INVALID_REQUEST_ERROR_CODE,
        }
    }
}

/// The thread ids of a `thread/list` request, parsed.
#[derive(Debug, Default)]
pub(super) struct ListedIds {
    pub(super) included: Option<Vec<Uuid>>,
    pub(super) excluded: Vec<Uuid>,
    pub(super) parent: Option<Uuid>,
    pub(super) ancestor: Option<Uuid>,
    pub(super) attached_to: Option<Uuid>,
}

/// `params`' thread ids, or the first reason Codex would refuse the request, checked in
/// Codex's order.
pub(super) fn checked_ids(params: &ThreadListParams) -> Result<ListedIds, ListParamsError> {
    let parse = |which: &'static str, text: &str| {
        Uuid::parse_str(text).map_err(|error| ListParamsError::BadThreadId { which, error })
    };
    let parse_all = |which: &'static str, texts: &[String]| -> Result<Vec<Uuid>, _> {
        texts.iter().map(|text| parse(which, text)).collect()
    };
    let included = match params.included_thread_ids.as_deref() {
        Some(ids) if ids.len() > MAX_INCLUDED => return Err(ListParamsError::TooManyIncluded),
        Some(ids) => Some(parse_all("included thread", ids)?),
        None => None,
    };
    let excluded = parse_all(
        "excluded thread",
        params.excluded_thread_ids.as_deref().unwrap_or_default(),
    )?;
    if params
        .originators
        .as_ref()
        .is_some_and(|originators| !originators.is_empty())
    {
        return Err(ListParamsError::Originators);
    }
    let searching = params
        .search_term
        .as_deref()
        .is_some_and(|term| !term.trim().is_empty());
    if params.include_attached_threads == Some(true) && !searching {
        return Err(ListParamsError::AttachedWithoutSearch);
    }
    let (parent, ancestor) = (&params.parent_thread_id, &params.ancestor_thread_id);
    if parent.is_some() && ancestor.is_some() {
        return Err(ListParamsError::ParentAndAncestor);
    }
    if params.attached_to_thread_id.is_some() && (parent.is_some() || ancestor.is_some()) {
        return Err(ListParamsError::AttachedAndParent);
    }
    Ok(ListedIds {
        included,
        excluded,
        parent: parent
            .as_deref()
            .map(|id| parse("parent thread", id))
            .transpose()?,
        ancestor: ancestor
            .as_deref()
            .map(|id| parse("ancestor thread", id))
            .transpose()?,
        attached_to: params
            .attached_to_thread_id
            .as_deref()
            .map(|id| parse("attached thread parent", id))
            .transpose()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(params: serde_json::Value) -> Result<String, serde_json::Error> {
        let params: ThreadListParams = serde_json::from_value(params)?;
        Ok(match checked_ids(&params) {
            Ok(_) => "accepted".to_owned(),
            Err(error) => format!("{} {error}", error.code()),
        })
    }

    #[test]
    fn refusals_come_in_codex_order_and_words() -> Result<(), Box<dyn std::error::Error>> {
        let id = "01a24354-0b64-7152-9395-c0fdcb9cd4f5";
        // Codex's words for a bad UUID are its uuid crate's, which differ between releases
        // of that crate (0.171: "invalid character: expected an optional prefix of
        // `urn:uuid:` followed by [0-9a-fA-F-], found `x` at 1"); ours are ours.
        let bad_uuid = match Uuid::parse_str("x") {
            Ok(_) => return Err("x parsed as a UUID".into()),
            Err(error) => error.to_string(),
        };
        let cases = [
            (
                serde_json::json!({"excludedThreadIds": ["y"], "includedThreadIds": ["x"]}),
                format!("-32602 invalid included thread id: {bad_uuid}"),
            ),
            (
                serde_json::json!({"excludedThreadIds": ["x"], "originators": ["a"]}),
                format!("-32602 invalid excluded thread id: {bad_uuid}"),
            ),
            (
                serde_json::json!({"originators": ["a"], "includeAttachedThreads": true}),
                "-32602 originator filtering is not supported by the local app-server".to_owned(),
            ),
            (
                serde_json::json!({"includeAttachedThreads": true, "searchTerm": " "}),
                "-32600 includeAttachedThreads requires a non-empty searchTerm".to_owned(),
            ),
            (
                serde_json::json!({"parentThreadId": "x", "ancestorThreadId": "y"}),
                "-32600 parentThreadId and ancestorThreadId are mutually exclusive".to_owned(),
            ),
            (
                serde_json::json!({"attachedToThreadId": "x", "ancestorThreadId": "y"}),
                "-32600 attachedToThreadId cannot be combined with parentThreadId or ancestorThreadId".to_owned(),
            ),
            (
                serde_json::json!({"attachedToThreadId": "x"}),
                format!("-32600 invalid attached thread parent id: {bad_uuid}"),
            ),
            (
                serde_json::json!({"parentThreadId": "x", "cursor": "zz"}),
                format!("-32600 invalid parent thread id: {bad_uuid}"),
            ),
            (
                serde_json::json!({"originators": [], "includeAttachedThreads": false, "ancestorThreadId": id}),
                "accepted".to_owned(),
            ),
        ];
        for (params, expected) in cases {
            assert_eq!(refusal(params.clone())?, expected, "{params}");
        }
        let many: Vec<String> = (0..101).map(|_| id.to_owned()).collect();
        assert_eq!(
            refusal(serde_json::json!({"includedThreadIds": many}))?,
            "-32602 includedThreadIds accepts at most 100 entries"
        );
        Ok(())
    }
}
