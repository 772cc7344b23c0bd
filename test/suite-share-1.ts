import { importTestShare } from './support/test-share.js';

await importTestShare(1, 2);
