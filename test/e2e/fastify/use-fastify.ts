/** Imported first by the Fastify runs of the shared suites: every app they boot is served by Nest's Fastify platform. */
process.env['SVC_TEST_PLATFORM'] = 'fastify';
