import { appendLoadCases } from './cases/append-load-cases.js';
import { blobOffloadCases } from './cases/blob-offload-cases.js';
import { branchCases } from './cases/branch-cases.js';
import { contentPartCases } from './cases/content-part-cases.js';
import { idempotencyConflictCases } from './cases/idempotency-conflict-cases.js';
import { instanceCases } from './cases/instance-cases.js';
import { invalidIdCases } from './cases/invalid-id-cases.js';
import { largeUnicodeCases } from './cases/large-unicode-cases.js';
import { leaseCases } from './cases/lease-cases.js';
import { listingDeleteCases } from './cases/listing-delete-cases.js';
import { messageIdCases } from './cases/message-id-cases.js';
import { modelBasedCases } from './cases/model-based-cases.js';
import { offloadedOutputCases } from './cases/offloaded-output-cases.js';
import { plainJsonCases } from './cases/plain-json-cases.js';
import { processCases } from './cases/process-cases.js';
import { processRaceCases } from './cases/process-race-cases.js';
import { searchCases } from './cases/search-cases.js';
import { titleCases } from './cases/title-cases.js';
import type { ConformanceCase } from './conformance-case.js';

/** Every check of the kit, grouped as the test report shows them. */
export const CONFORMANCE_GROUPS: Readonly<Record<string, readonly ConformanceCase[]>> = {
  'append and load': appendLoadCases,
  'listing and delete': listingDeleteCases,
  'titles and renames': titleCases,
  search: searchCases,
  'branches (edits and regenerations)': branchCases,
  'blobs and offloading': blobOffloadCases,
  'idempotency and conflicts': idempotencyConflictCases,
  'message ids': messageIdCases,
  'offloaded outputs': offloadedOutputCases,
  'media parts': contentPartCases,
  'invalid ids': invalidIdCases,
  'instances and persistence': instanceCases,
  'unicode and size': largeUnicodeCases,
  'plain JSON values': plainJsonCases,
  'reference model': modelBasedCases,
  leases: leaseCases,
  processes: [...processCases, ...processRaceCases],
};
