import { importTestShare } from './support/test-share.js';

await importTestShare(2, 2);
