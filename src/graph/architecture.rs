//! The part of [`super::Architecture`] every family answers the same way, written once.

/// Implements `Architecture` for a resolved config with `class` and `defaulted` fields, its own
/// `dims()`, and a `build(c, seq)` and a checkpoint-candidates function in the calling module.
/// A family says only what differs: the activation keys, the checkpoint prefixes, whether its
/// residual init is depth-blind; further trait methods follow after a `;`.
macro_rules! architecture {
    (
        $ty:ident,
        |$c:ident| activations: $act:expr,
        prefixes: [$($prefix:expr),*],
        candidates: $cand:path,
        unscaled_residual_init: $unscaled:expr
        $(; $($rest:tt)*)?
    ) => {
        impl $crate::graph::Architecture for $ty {
            fn activations(&self) -> Vec<(&'static str, String)> {
                let $c = self;
                $act
            }
            fn class(&self) -> &str {
                &self.class
            }
            fn dims(&self) -> $crate::config::Dims {
                $ty::dims(self)
            }
            fn defaulted(&self) -> &[$crate::config::Defaulted] {
                &self.defaulted
            }
            fn graph(&self, seq: u64) -> $crate::graph::Graph {
                build(self, seq)
            }
            fn checkpoint_candidates(&self) -> Vec<$crate::graph::Candidate> {
                $cand(self)
            }
            fn checkpoint_prefixes(&self) -> Vec<String> {
                let $c = self;
                let _ = $c;
                let mut v = Vec::new();
                $($crate::graph::architecture::Prefixes::push_to($prefix, &mut v);)*
                v
            }
            fn unscaled_residual_init(&self) -> bool {
                $unscaled
            }
            $($($rest)*)?
        }
    };
}

/// A checkpoint prefix, or a list of them (a described type's, from its table).
pub(crate) trait Prefixes {
    fn push_to(self, out: &mut Vec<String>);
}

impl Prefixes for &str {
    fn push_to(self, out: &mut Vec<String>) {
        out.push(self.to_string());
    }
}

impl Prefixes for &[&str] {
    fn push_to(self, out: &mut Vec<String>) {
        out.extend(self.iter().map(|p| p.to_string()));
    }
}
