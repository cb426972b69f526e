//! Every model of the reference data that the project carries: planned, supported, and its
//! derived count equal to the published checkpoint's or the difference explained to the scalar.
//! The published totals are read from tests/fixtures/reference/checkpoints.tsv, not from the snapshot.

mod common;

use modelatlas::estimate::reconcile::Status;

#[test]
fn every_carried_reference_model_is_supported_and_reconciles_with_its_checkpoint() {
    let manifest = modelatlas::manifest::Manifest::load(&common::repo().join("models.toml")).unwrap();
    let published = common::published_counts();
    let mut with_count = 0;
    let mut problems = vec![];
    for id in &manifest.models {
        let page = common::plan_id(&id.to_string());
        if !page.supported {
            problems.push(format!("{id}: unsupported ({})", page.family));
            continue;
        }
        let p = page.params.unwrap();
        let Some(total) = published.get(&id.to_string()) else {
            assert_eq!(p.checkpoint, None, "{id}: a count the reference does not have");
            continue;
        };
        with_count += 1;
        assert_eq!(p.checkpoint, Some(*total), "{id}: the snapshot's count is the reference's");
        let r = &p.reconciliation;
        let accounted: i64 = r.items.iter().map(|i| i.scalars).sum();
        match r.status {
            Status::Equal => assert_eq!(p.derived, *total, "{id}"),
            Status::Explained if p.derived as i64 + accounted == *total as i64 => {}
            _ => problems.push(format!(
                "{id}: derived {} vs published {total}: {:?}, {} unexplained",
                p.derived,
                r.status,
                r.unexplained.unwrap_or(0)
            )),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(with_count >= 14, "only {with_count} models have a published count");
}
