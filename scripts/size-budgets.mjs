// What every size budget is counted in, for `npm run size` (scripts/measure-sizes.mjs) and its Metro row
// (scripts/metro-size.mjs).

export const KB = 1024;

/**
 * What DESIGN section 11 adds to each budget where the tracker is in the row: the code every tracker start needs
 * (issue 20's field features, the flusher, the start-up housekeeping), now loaded with the entry instead of as a
 * second request; "about 2.7 KB, no more".
 */
export const START_UP_CODE = 2.7 * KB;
