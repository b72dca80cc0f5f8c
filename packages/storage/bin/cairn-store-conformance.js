#!/usr/bin/env node
import '../dist/testkit/cli.js';
