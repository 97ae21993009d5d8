/**
 * The container files a deployer builds from (nothing here needs the network or a Docker daemon): the
 * Dockerfile's essentials, and compose.yaml as YAML with PostgreSQL and two instances behind the proxy.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { parse } from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Dockerfile instructions, continuation lines joined, comments dropped. */
function instructions(text: string): Array<{ op: string; args: string }> {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [op, ...rest] = l.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

describe('container image and compose', () => {
  it('Dockerfile: production dependencies only, a non-root user, a health check on /healthz, serve', () => {
    const steps = instructions(readFileSync(path.join(root, 'Dockerfile'), 'utf8'));
    const known = ['FROM', 'WORKDIR', 'COPY', 'RUN', 'ENV', 'USER', 'VOLUME', 'EXPOSE', 'HEALTHCHECK', 'CMD', 'ARG'];
    for (const step of steps) expect(known, `unknown instruction ${step.op}`).to.include(step.op);
    expect(steps[0].op).to.equal('FROM');
    const runs = steps.filter((s) => s.op === 'RUN').map((s) => s.args);
    expect(runs.some((r) => /npm ci\b.*--omit=dev/.test(r))).to.equal(true);
    const lastFrom = steps.map((s) => s.op).lastIndexOf('FROM');
    const user = steps.slice(lastFrom).filter((s) => s.op === 'USER');
    expect(user, 'the final stage sets a user').to.have.length.greaterThan(0);
    expect(user[user.length - 1].args).not.to.match(/^(root|0)(:|$)/);
    const health = steps.find((s) => s.op === 'HEALTHCHECK');
    expect(health?.args).to.contain('/healthz');
    const cmd = steps.filter((s) => s.op === 'CMD').pop()!;
    expect(JSON.parse(cmd.args)).to.deep.equal(['node', 'bin/crm.mjs', 'serve']);
    // The image leaves out what production does not run.
    const ignore = readFileSync(path.join(root, '.dockerignore'), 'utf8').split('\n');
    expect(ignore).to.include.members(['node_modules', 'var', 'test', '.git']);
  });

  it('compose.yaml: PostgreSQL and two instances sharing the database and the secret keys, behind a proxy', () => {
    const compose = parse(readFileSync(path.join(root, 'compose.yaml'), 'utf8'), { merge: true }) as {
      services: Record<string, Record<string, any>>;
      volumes?: Record<string, unknown>;
    };
    const { services } = compose;
    expect(services.postgres.image).to.match(/^postgres:/);
    expect(services.postgres.healthcheck.test.join(' ')).to.contain('pg_isready');
    const instances = Object.entries(services).filter(([, s]) => s.image === 'crm-service:local');
    expect(instances.map(([name]) => name)).to.deep.equal(['crm1', 'crm2']);
    for (const [, service] of instances) {
      expect(service.build).to.equal('.');
      expect(service.environment.DATABASE_URL).to.match(/^postgres:\/\/crm:.*@postgres:5432\/crm$/);
      expect(service.environment.CRM_SECRET_KEYS).to.contain('${CRM_SECRET_KEYS:?');
      expect(service.environment.HOST).to.equal('0.0.0.0');
      expect(service.depends_on.postgres.condition).to.equal('service_healthy');
    }
    // Each instance has its own data folder; everything they must share is in PostgreSQL.
    expect(instances[0][1].volumes).not.to.deep.equal(instances[1][1].volumes);
    for (const volume of [...instances.flatMap(([, service]) => service.volumes), ...services.postgres.volumes])
      expect(Object.keys(compose.volumes ?? {})).to.include(String(volume).split(':')[0]);

    const proxy = services.proxy;
    expect(proxy.ports).to.deep.equal(['8080:80']);
    expect(proxy.depends_on).to.have.members(['crm1', 'crm2']);
    const mount = (proxy.volumes as string[]).find((v) => v.includes('Caddyfile'))!;
    const caddyfile = readFileSync(path.join(root, mount.split(':')[0]), 'utf8');
    expect(caddyfile).to.match(/reverse_proxy crm1:8080 crm2:8080/);
    expect(caddyfile).to.contain('health_uri /readyz');
    expect(existsSync(path.join(root, 'docs/deploying.md'))).to.equal(true);
  });
});
