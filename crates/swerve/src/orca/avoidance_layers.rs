//! Avoidance layers and masks (beyond RVO2): which agents an agent avoids.
//!
//! Game engines need crowds that do not all avoid one another: allies that walk through each
//! other's formation, ghosts, vehicles that pedestrians step aside for but that do not swerve
//! for pedestrians. Godot's RVO2-based avoidance gives every agent `avoidance_layers` and an
//! `avoidance_mask` (Unity's NavMeshAgent has a priority instead); swerve takes Godot's rule:
//!
//! * agent A avoids agent B when `A.mask & B.layers != 0`;
//! * A's neighbours are the `max_neighbors` nearest agents within its neighbour distance that it
//!   avoids (RVO2's query over those agents alone, ties in its tree's order), so the agents it
//!   ignores take no place in its list;
//! * when A avoids B but B ignores A, B will not yield, so A takes the whole avoidance of B, as
//!   of an agent of responsibility weight 0 (ORCA's reciprocity assumes both sides act: with
//!   half of it each, as Godot does, A would run into B).
//!
//! Every agent starts with layers 1 and mask 1: everyone avoids everyone, RVO2 bit for bit.

use crate::spatial::LayerFilter;

/// An agent's layers until set: the first layer.
pub const DEFAULT_AVOIDANCE_LAYERS: u32 = 1;
/// An agent's mask until set: it avoids the agents on the first layer.
pub const DEFAULT_AVOIDANCE_MASK: u32 = 1;

/// Up to this many distinct layer values are told apart per step; with more, every agent's
/// query is filtered (the same answers, a little slower).
const DISTINCT_LAYERS: usize = 16;

/// Every agent's layers and mask, in the simulator's agent order. The per-agent arrays exist
/// only once some agent has been given other values than the defaults: a crowd without layers
/// keeps no memory for them (8 MiB at a million agents).
#[derive(Clone, Debug, Default)]
pub(crate) struct AvoidanceLayers {
    /// How many agents there are.
    agents: usize,
    /// Each agent's layers and mask; empty until some agent's differ from the defaults.
    layers: Vec<u32>,
    masks: Vec<u32>,
    /// How many agents have layers or a mask other than the defaults (none: RVO2).
    custom: usize,
    /// The distinct layer values among the agents, when there are at most `DISTINCT_LAYERS`
    /// (`distinct_known`); recomputed by [`AvoidanceLayers::prepare`] after any change.
    distinct: Vec<u32>,
    distinct_known: bool,
    /// Whether every agent's mask takes in every agent's layers (known from the distinct
    /// layers and masks): then nobody ignores anybody, and the step is RVO2's.
    everyone_avoids_everyone: bool,
    /// The distinct masks, as `distinct` (scratch of `prepare`).
    distinct_masks: Vec<u32>,
    /// Every agent's layers in the planar grid's slot order, for its scan (see
    /// [`AvoidanceLayers::arrange_by_slot`]).
    by_slot: Vec<u32>,
    changed: bool,
}

impl AvoidanceLayers {
    /// Whether the per-agent arrays exist.
    fn stored(&self) -> bool {
        !self.layers.is_empty()
    }

    /// A new agent, on the default layer with the default mask.
    pub(crate) fn push(&mut self) {
        self.agents += 1;
        if self.stored() {
            self.layers.push(DEFAULT_AVOIDANCE_LAYERS);
            self.masks.push(DEFAULT_AVOIDANCE_MASK);
        }
        self.changed = true;
    }

    /// Agent `i` leaves; later agents move down one place.
    pub(crate) fn remove(&mut self, i: usize) {
        self.agents -= 1;
        if self.stored() {
            let (layers, mask) = (self.layers.remove(i), self.masks.remove(i));
            self.custom -= usize::from(!is_default(layers, mask));
        }
        self.changed = true;
    }

    /// Agent `i`'s layers.
    pub(crate) fn layers(&self, i: usize) -> u32 {
        self.layers.get(i).copied().unwrap_or(DEFAULT_AVOIDANCE_LAYERS)
    }

    /// Agent `i`'s mask.
    pub(crate) fn mask(&self, i: usize) -> u32 {
        self.masks.get(i).copied().unwrap_or(DEFAULT_AVOIDANCE_MASK)
    }

    /// Sets agent `i`'s layers, keeping its mask.
    pub(crate) fn set_layers(&mut self, i: usize, layers: u32) {
        self.set(i, layers, self.mask(i));
    }

    /// Sets agent `i`'s mask, keeping its layers.
    pub(crate) fn set_mask(&mut self, i: usize, mask: u32) {
        self.set(i, self.layers(i), mask);
    }

    /// Sets agent `i`'s layers and mask.
    fn set(&mut self, i: usize, layers: u32, mask: u32) {
        if !self.stored() {
            if is_default(layers, mask) {
                return;
            }
            self.layers = vec![DEFAULT_AVOIDANCE_LAYERS; self.agents];
            self.masks = vec![DEFAULT_AVOIDANCE_MASK; self.agents];
        }
        self.custom -= usize::from(!is_default(self.layers[i], self.masks[i]));
        (self.layers[i], self.masks[i]) = (layers, mask);
        self.custom += usize::from(!is_default(layers, mask));
        self.changed = true;
    }

    /// Whether any agent's layers or mask differ from the defaults (otherwise every agent
    /// avoids every other, as in RVO2).
    pub(crate) fn is_active(&self) -> bool {
        self.custom > 0
    }

    /// Brings the distinct layer values up to date before a step (a pass over the crowd, only
    /// after a change and only when layers are in use; it allocates once, at most
    /// `DISTINCT_LAYERS` values).
    pub(crate) fn prepare(&mut self) {
        if !self.changed || !self.is_active() {
            return;
        }
        self.changed = false;
        self.everyone_avoids_everyone = false;
        self.distinct_known = distinct_values(&self.layers, &mut self.distinct);
        if self.distinct_known && distinct_values(&self.masks, &mut self.distinct_masks) {
            let distinct = &self.distinct;
            self.everyone_avoids_everyone =
                self.distinct_masks.iter().all(|&mask| distinct.iter().all(|&layers| layers & mask != 0));
        }
    }

    /// Lays the layers out in slot order (`agents_by_slot[slot]` is the agent in that slot), so
    /// that the planar grid's scan reads them beside the positions.
    pub(crate) fn arrange_by_slot(&mut self, agents_by_slot: &[u32]) {
        self.by_slot.clear();
        self.by_slot.extend(agents_by_slot.iter().map(|&agent| self.layers[agent as usize]));
    }

    /// What a step reads: `None` when layers are not in use or nobody ignores anybody (the
    /// step is then RVO2's, at RVO2's speed). Call [`AvoidanceLayers::prepare`] first.
    pub(crate) fn view(&self) -> Option<LayerView<'_>> {
        debug_assert!(!self.changed || !self.is_active());
        (self.is_active() && !self.everyone_avoids_everyone).then(|| LayerView {
            layers: &self.layers,
            masks: &self.masks,
            by_slot: &self.by_slot,
            distinct: if self.distinct_known { Some(&self.distinct) } else { None },
        })
    }
}

/// Collects the distinct `values` into `out`: false when there are more than
/// `DISTINCT_LAYERS`.
fn distinct_values(values: &[u32], out: &mut Vec<u32>) -> bool {
    out.clear();
    for &value in values {
        if !out.contains(&value) {
            if out.len() == DISTINCT_LAYERS {
                return false;
            }
            out.push(value);
        }
    }
    true
}

fn is_default(layers: u32, mask: u32) -> bool {
    layers == DEFAULT_AVOIDANCE_LAYERS && mask == DEFAULT_AVOIDANCE_MASK
}

/// One agent's neighbour filter, over the agents by index (for the trees) and by the planar
/// grid's slot (valid after [`AvoidanceLayers::arrange_by_slot`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct AgentFilters<'a> {
    pub(crate) by_agent: LayerFilter<'a>,
    pub(crate) by_slot: LayerFilter<'a>,
}

/// The layers a step reads (see [`AvoidanceLayers::view`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct LayerView<'a> {
    layers: &'a [u32],
    masks: &'a [u32],
    by_slot: &'a [u32],
    distinct: Option<&'a [u32]>,
}

impl<'a> LayerView<'a> {
    /// The neighbour filters of agent `i`, or `None` when its mask takes in every agent of the
    /// crowd (its query is then RVO2's, unfiltered).
    #[inline]
    pub(crate) fn filter_for(&self, i: usize) -> Option<AgentFilters<'a>> {
        let mask = self.masks[i];
        match self.distinct {
            Some(distinct) if distinct.iter().all(|&layers| layers & mask != 0) => None,
            _ => Some(AgentFilters {
                by_agent: LayerFilter { layers: self.layers, mask },
                by_slot: LayerFilter { layers: self.by_slot, mask },
            }),
        }
    }

    /// Whether agent `other` ignores agent `me` (so that `me` avoids it alone).
    #[inline]
    pub(crate) fn ignores(&self, other: usize, me: usize) -> bool {
        self.masks[other] & self.layers[me] == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_exist_only_once_some_agent_leaves_the_defaults() {
        let mut layers = AvoidanceLayers::default();
        (0..3).for_each(|_| layers.push());
        layers.set_mask(1, DEFAULT_AVOIDANCE_MASK);
        assert!(!layers.stored() && !layers.is_active());
        assert_eq!((layers.layers(2), layers.mask(2)), (1, 1));
        layers.set_layers(1, 0b10);
        layers.set_mask(1, 0b11);
        assert!(layers.stored() && layers.is_active());
        layers.push();
        assert_eq!((layers.layers(1), layers.mask(1), layers.layers(3)), (0b10, 0b11, 1));
        layers.remove(0);
        assert_eq!((layers.layers(0), layers.mask(0)), (0b10, 0b11));
        layers.set_layers(0, 1);
        layers.set_mask(0, 1);
        assert!(!layers.is_active());
        layers.prepare();
        assert!(layers.view().is_none());
    }
}
