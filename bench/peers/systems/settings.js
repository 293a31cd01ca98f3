/**
 * The knob sweeps of the peers' bench, cheapest first: each system runs at the first setting whose
 * recall@k on the calibration queries reaches 0.95 (or its best, said so in the table).
 */

/** efSearch (ours) and ef (raw hnswlib): the HNSW candidate list. */
export const EF_SWEEP = [10, 12, 14, 16, 20, 24, 32, 48, 64, 96, 128, 200, 300];
