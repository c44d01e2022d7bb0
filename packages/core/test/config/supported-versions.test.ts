import { ConfigurationException, requireSupportedVersion } from '../../src';

describe('requireSupportedVersion', () => {
  const check = (version: string | undefined) => () =>
    requireSupportedVersion({ name: '@nestjs/core', version, supported: ['11'], range: '^11' });

  it('accepts a supported major and an unknown version', () => {
    expect(check('11.1.6')).not.toThrow();
    expect(check(undefined)).not.toThrow();
  });

  it('refuses another major at bootstrap, naming the installed and the supported versions', () => {
    expect(check('12.0.0')).toThrow(ConfigurationException);
    expect(check('12.0.0')).toThrow(/12\.0\.0 is installed; this version of Svc supports @nestjs\/core \^11/);
    expect(check('1.0.0')).toThrow(ConfigurationException);
  });

  it('matches whole version parts, so 0.3 does not accept 0.30', () => {
    const typeorm = (version: string) => () =>
      requireSupportedVersion({ name: 'typeorm', version, supported: ['0.3'], range: '^0.3.27' });
    expect(typeorm('0.3.31')).not.toThrow();
    expect(typeorm('0.30.0')).toThrow(/typeorm \^0\.3\.27/);
    expect(typeorm('1.0.0')).toThrow(/Install typeorm@"\^0\.3\.27"/);
  });
});
