/**
 * The transport tests' key, timestamp and hashes, computed with node:crypto apart from the code
 * under test.
 */
import { createHash, createHmac } from 'node:crypto';

export const SECRET = 'sk_test_vector_secret';
export const TS = '1767225600';
export const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
export const hmac = (text: string) => createHmac('sha256', SECRET).update(text).digest('hex');
export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
