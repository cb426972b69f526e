use super::runs::consecutive;
use super::*;
use crate::graph::{Op, Role, Tensor};

fn layer(name: &str, repeat: u64, width: u64) -> Section {
    Section {
        name: name.into(),
        role: Role::Layers,
        repeat,
        nodes: vec![
            Node::new(format!("{name}.mlp"), Op::Linear, "mlp", &[8, width])
                .with([Tensor::new(format!("{name}.mlp.weight"), &[width, 4])]),
        ],
    }
}

#[test]
fn a_dense_prefix_and_the_layers_after_it_fold_into_one_section_per_kind() {
    let mut s = vec![layer("m.layers.{i}", 3, 16)];
    for k in 3..10 {
        s.push(layer(&format!("m.layers.{k}"), 1, 32));
    }
    let f = fold(&s);
    assert_eq!(f.len(), 2);
    assert_eq!(f[0].name, "m.layers.{i}");
    assert_eq!(f[0].layers, Some(vec![Run { first: 0, last: 2, step: 1 }]));
    assert_eq!(f[1].repeat, 7);
    assert_eq!(f[1].layers, Some(vec![Run { first: 3, last: 9, step: 1 }]));
    // 7 layers of a 32 x 4 weight.
    assert_eq!(f[1].total_params(), 7 * 32 * 4);
    assert_eq!(f[1].rename("m.layers.5.mlp.weight", f[1].members[2]), "m.layers.{i}.mlp.weight");
}

#[test]
fn alternating_kinds_take_one_run_per_residue_of_their_period() {
    // Jamba-1.5-Mini: attention every 8th layer from 4, experts every 2nd from 1.
    let s: Vec<Section> = (0..32)
        .map(|k| {
            layer(
                &format!("m.layers.{k}"),
                1,
                if k % 8 == 4 {
                    1
                } else if k % 2 == 1 {
                    2
                } else {
                    3
                },
            )
        })
        .collect();
    let f = fold(&s);
    let runs: Vec<String> = f.iter().map(|x| runs_text(x.layers.as_deref().unwrap_or(&[]))).collect();
    assert_eq!(runs, ["0, 8, …, 24; 2, 10, …, 26; 6, 14, …, 30", "1, 3, …, 31", "4, 12, …, 28"]);
}

#[test]
fn a_full_attention_layer_every_fourth_leaves_three_runs_of_linear_ones() {
    let mut s = vec![layer("m.layers.{i}", 3, 1)];
    for k in 3..48 {
        s.push(layer(&format!("m.layers.{k}"), 1, if k % 4 == 3 { 2 } else { 1 }));
    }
    let f = fold(&s);
    assert_eq!(f.len(), 2);
    assert_eq!(f[0].repeat, 36);
    assert_eq!(runs_text(f[0].layers.as_deref().unwrap_or(&[])), "0, 4, …, 44; 1, 5, …, 45; 2, 6, …, 46");
    assert_eq!(runs_text(f[1].layers.as_deref().unwrap_or(&[])), "3, 7, …, 47");
}

#[test]
fn two_kinds_every_tenth_layer_take_one_run_each_not_a_run_per_pair() {
    // 0, 10, 20, 30 and 3, 13, 23, 33: in order, steps of 3 and 7 alternate (four runs of
    // two); modulo 10 they are two residues without gaps.
    let parts: Vec<Run> = [0, 3, 10, 13, 20, 23, 30, 33].map(|k| Run { first: k, last: k, step: 1 }).to_vec();
    assert_eq!(consecutive(&[0, 3, 10, 13, 20, 23, 30, 33]).len(), 4);
    assert_eq!(
        runs_of(&parts),
        vec![Run { first: 0, last: 30, step: 10 }, Run { first: 3, last: 33, step: 10 }]
    );
    // 0 to 99 in a row: one run, whatever period might be tried.
    let row: Vec<Run> = (0..100).map(|k| Run { first: k, last: k, step: 1 }).collect();
    assert_eq!(runs_of(&row), vec![Run { first: 0, last: 99, step: 1 }]);
}

#[test]
fn sections_that_are_not_layers_and_a_lone_layer_stay_as_they_are() {
    let s = vec![layer("m.embed", 1, 4), layer("m.layers.{i}", 2, 4), layer("m.layers.007", 1, 4)];
    let f = fold(&s);
    assert_eq!(
        f.iter().map(|x| x.name.as_str()).collect::<Vec<_>>(),
        ["m.embed", "m.layers.{i}", "m.layers.007"]
    );
    assert_eq!(f[0].layers, None);
    assert_eq!(f[1].layers, Some(vec![Run { first: 0, last: 1, step: 1 }]));
}

#[test]
fn a_member_is_found_from_any_node_name_under_it_and_not_from_a_longer_index() {
    let s = vec![layer("m.layers.{i}", 3, 1), layer("m.layers.3", 1, 2), layer("m.layers.30", 1, 2)];
    let f = fold(&s);
    let m = Members::new(&f);
    assert_eq!(m.of("m.layers.3.mlp"), Some((1, 0)));
    assert_eq!(m.of("m.layers.30.mlp"), Some((1, 1)));
    assert_eq!(m.of("m.layers.{i}.mlp"), Some((0, 0)));
    assert_eq!(m.of("rotary cos and sin"), None);
}
