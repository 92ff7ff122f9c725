//! Responses merged per model and local day, so a file's usage takes memory in proportion to
//! the days and models it spans, not to its responses.
//!
//! Every usage report groups responses by a function of their local day (day, week, month,
//! the date range), their model or their file, and shows the latest time of each row: an
//! entry holding the sum of one model's responses on one local day, with the latest of their
//! timestamps, gives every such report the same rows as the responses themselves, in the
//! zone the days were taken in.

use std::collections::HashMap;
use std::sync::Arc;

use chrono::NaiveDate;
use chrono_tz::Tz;

use super::{CountedFrom, ResponseUsage};

/// What responses are merged by.
type GroupKey = (NaiveDate, Option<Arc<str>>, CountedFrom);

/// Where each group's entry is in a file's responses.
#[derive(Debug)]
pub(crate) struct DayGroups {
    zone: Tz,
    index: HashMap<GroupKey, usize>,
}

impl DayGroups {
    /// Groups by local day in `zone`.
    pub(crate) fn new(zone: Tz) -> Self {
        Self {
            zone,
            index: HashMap::new(),
        }
    }

    /// Adds `response` to `responses`: into its group's entry when there is one (the tokens
    /// summed, the latest time and its line kept), else as a new entry.
    pub(crate) fn add(&mut self, responses: &mut Vec<ResponseUsage>, response: ResponseUsage) {
        let key = self.key_of(&response);
        if let Some(entry) = self
            .index
            .get(&key)
            .and_then(|index| responses.get_mut(*index))
        {
            entry.tokens.add(&response.tokens);
            if response.timestamp >= entry.timestamp {
                entry.timestamp = response.timestamp;
                entry.line = response.line;
            }
            return;
        }
        self.index.insert(key, responses.len());
        responses.push(response);
    }

    /// Rebuilds the index after `responses` lost entries.
    pub(crate) fn reindex(&mut self, responses: &[ResponseUsage]) {
        self.index.clear();
        for (index, response) in responses.iter().enumerate() {
            let key = self.key_of(response);
            self.index.insert(key, index);
        }
    }

    fn key_of(&self, response: &ResponseUsage) -> GroupKey {
        (
            response.timestamp.with_timezone(&self.zone).date_naive(),
            response.model.clone(),
            response.counted_from,
        )
    }
}
