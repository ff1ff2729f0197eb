import type { ExampleObject } from '@nestjs/swagger';

/** Bodies of PUT /api/admin/computer-use that people copy (docs/api.md); each is accepted as it is. */
export const CONFIG_EXAMPLES: Record<string, ExampleObject> = {
  minimal: {
    summary: 'One agent, every default (writes wait for approval)',
    value: {
      enabled: true,
      agents: {
        'sap-orders': {
          screen_url: 'https://sapgui-host.internal:8443',
          screen_token_env: 'TICKETIQ_SAPGUI_HOST_TOKEN',
          system: 'SAP GUI',
          max_steps: 20,
          max_seconds: 300,
        },
      },
    },
  },
  modelPlanner: {
    summary: 'A model planner, approver groups and a pinned screen-host certificate',
    value: {
      enabled: true,
      agents: {
        'sap-orders': {
          screen_url: 'https://sapgui-host.internal:8443',
          screen_token_env: 'TICKETIQ_SAPGUI_HOST_TOKEN',
          screen_tls: {
            fingerprint_sha256:
              '3F:9A:1C:5E:7B:02:D4:68:AA:10:5C:E3:91:7F:26:B8:4D:C0:19:E5:72:3B:A8:6F:0D:94:E1:57:2C:B3:48:6A',
          },
          system: 'SAP GUI',
          max_steps: 20,
          max_seconds: 300,
          planner: {
            provider: 'anthropic',
            model: 'claude-sonnet-5-5',
            api_key_env: 'ANTHROPIC_API_KEY',
          },
          approvers: ['group:warden-approvers'],
        },
      },
    },
  },
};
