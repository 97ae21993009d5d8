import { expect } from 'chai';
import { asFunction, asValue, Lifetime } from 'awilix';
import { createRequestScope, KernelError } from '../../kernel';
import { createRootContainer, serviceRegistrarFor } from '../../kernel/container';
import { principalWith } from '../../host/testing';

describe('kernel/container', () => {
  it('gives each request scope its own principal and request id', () => {
    const root = createRootContainer();
    const a = createRequestScope(root, 'req-a', principalWith(['x'], 1));
    const b = createRequestScope(root, 'req-b', principalWith(['y'], 2));
    expect(a.cradle.requestId).to.equal('req-a');
    expect(b.cradle.principal.contactId).to.equal(2);
    expect(a.cradle.principal.contactId).to.equal(1);
  });

  it('builds scoped services once per scope and disposes them when the scope is disposed', async () => {
    const root = createRootContainer();
    const disposed: string[] = [];
    serviceRegistrarFor(root, 'p', ['unitOfWork']).scoped('unitOfWork', ({ requestId }) => ({ requestId }), {
      dispose: (u) => void disposed.push(u.requestId),
    });
    const scope = createRequestScope(root, 'r1', principalWith([]));
    expect(scope.resolve('unitOfWork')).to.equal(scope.resolve('unitOfWork'));
    expect(createRequestScope(root, 'r2', principalWith([])).resolve('unitOfWork')).to.not.equal(
      scope.resolve('unitOfWork'),
    );
    await scope.dispose();
    expect(disposed).to.deep.equal(['r1']);
  });

  it('refuses (strict mode) a singleton that depends on a scoped name, so no request leaks into another', () => {
    const root = createRootContainer();
    root.register(
      'leaky',
      asFunction(({ principal }) => principal, { lifetime: Lifetime.SINGLETON }),
    );
    const scope = createRequestScope(root, 'r', principalWith([], 1));
    expect(() => scope.resolve('leaky')).to.throw();
  });

  it('makes the Awilix scope only when the request needs one of its own (root singletons and values come from the root)', async () => {
    const root = createRootContainer();
    const reg = serviceRegistrarFor(root, 'p', ['config', 'counter', 'unitOfWork']);
    reg.value('config', { limit: 5 });
    reg.singleton('counter', () => ({ n: 1 }));
    reg.scoped('unitOfWork', ({ requestId }) => ({ requestId }));
    let made = 0;
    const createScope = root.createScope.bind(root);
    root.createScope = (() => (made++, createScope())) as typeof root.createScope;
    const scope = createRequestScope(root, 'r1', principalWith([], 1));
    expect((scope.cradle as unknown as { config: unknown }).config).to.deep.equal({ limit: 5 });
    expect(scope.resolve('counter')).to.equal(root.resolve('counter'));
    expect('config' in scope.cradle && 'unitOfWork' in scope.cradle && 'requestId' in scope.cradle).to.equal(true);
    expect('nothing' in scope.cradle).to.equal(false);
    await scope.dispose();
    expect(made, 'no scope for root singletons and values').to.equal(0);
    // A name of the request's own, or a scoped service, makes it: once.
    const other = createRequestScope(root, 'r2', principalWith([], 2));
    expect(other.cradle.requestId).to.equal('r2');
    expect((other.cradle as unknown as { unitOfWork: unknown }).unitOfWork).to.deep.equal({ requestId: 'r2' });
    expect(other.resolve('counter')).to.equal(root.resolve('counter'));
    expect(made).to.equal(1);
  });

  it('replays registrations made before the scope exists, in order, and resolves them there', () => {
    const root = createRootContainer();
    const scope = createRequestScope(root, 'r', principalWith([], 1));
    scope.register({ principal: asValue(principalWith([], 7)) });
    scope.register('extra', asValue('first'));
    scope.register('extra', asValue('second'));
    expect(scope.cradle.principal.contactId).to.equal(7);
    expect(scope.resolve('extra')).to.equal('second');
    // Registered on the scope, never on the root.
    expect(root.hasRegistration('extra')).to.equal(false);
  });

  it('lets a plugin register only the services its manifest declares, and each only once', () => {
    const root = createRootContainer();
    const reg = serviceRegistrarFor(root, 'p', ['mine']);
    expect(() => reg.value('other', 1))
      .to.throw(KernelError)
      .with.property('code', 'E_SERVICE_UNDECLARED');
    reg.value('mine', 1);
    expect(() => serviceRegistrarFor(root, 'q', ['mine']).value('mine', 2))
      .to.throw(KernelError)
      .with.property('code', 'E_SERVICE_UNDECLARED');
    expect(reg.resolve('mine')).to.equal(1);
  });
});
