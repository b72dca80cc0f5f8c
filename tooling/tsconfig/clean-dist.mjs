#!/usr/bin/env node
// Removes the package's dist before a build: tsc only writes, so output of deleted or renamed sources
// would otherwise stay in dist and ship.
import { rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
