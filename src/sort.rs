//! One stable sort for the whole crate. `slice::sort_by` is generic over the element and the
//! comparator, so each call site linked its own copy of the standard library's driftsort (a few
//! kB each in the browser's planner, static/planner.wasm). Here the standard sort runs on indices
//! with one comparator type, once for the crate; each element type adds only the shuffle.

use std::cmp::Ordering;

/// Sorts `v` by `cmp`, stably: the order `slice::sort_by` gives, since a stable sort's result is
/// fixed by the comparator.
pub fn stable_by<T>(v: &mut Vec<T>, cmp: &dyn Fn(&T, &T) -> Ordering) {
    let mut order: Vec<usize> = (0..v.len()).collect();
    indices_by(&mut order, &|a, b| cmp(&v[a], &v[b]));
    let mut items: Vec<Option<T>> = v.drain(..).map(Some).collect();
    v.extend(order.iter().filter_map(|&i| items.get_mut(i).and_then(Option::take)));
}

/// Sorts indices by `cmp`, stably.
pub fn indices_by(order: &mut [usize], cmp: &dyn Fn(usize, usize) -> Ordering) {
    order.sort_by(|&a, &b| cmp(a, b));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_keys_keep_their_input_order() {
        let mut v = vec![(2, 'a'), (1, 'b'), (2, 'c'), (1, 'd'), (0, 'e')];
        stable_by(&mut v, &|x, y| x.0.cmp(&y.0));
        assert_eq!(v, [(0, 'e'), (1, 'b'), (1, 'd'), (2, 'a'), (2, 'c')]);
    }
}
