import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificates {
  /** PEM of the test CA, and a file holding it (for SMTP_CA_FILE). */
  caPem: string;
  caFile: string;
  /** A server certificate for `localhost` and 127.0.0.1 signed by that CA, with its key. */
  cert: string;
  key: string;
  dispose(): void;
}

/** A throw-away CA and a loopback server certificate, made with the openssl CLI (P-256, valid one day). */
export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'one-hub-tls-'));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', at('ca.key'), '-out', at('ca.pem'), '-days', '1', '-subj', '/CN=One Hub Test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  openssl('req', ...ec, '-keyout', at('leaf.key'), '-out', at('leaf.csr'), '-subj', '/CN=localhost');
  writeFileSync(at('leaf.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  openssl('x509', '-req', '-in', at('leaf.csr'), '-CA', at('ca.pem'), '-CAkey', at('ca.key'), '-CAcreateserial', '-out', at('leaf.pem'), '-days', '1', '-extfile', at('leaf.ext'));
  return {
    caPem: readFileSync(at('ca.pem'), 'utf8'),
    caFile: at('ca.pem'),
    cert: readFileSync(at('leaf.pem'), 'utf8'),
    key: readFileSync(at('leaf.key'), 'utf8'),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
