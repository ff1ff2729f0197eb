import type { MigrationInterface } from 'typeorm';
import { Foundation1795994511380 } from './1795994511380-Foundation';
import { Settings1795996018853 } from './1795996018853-Settings';
import { ScriptedPlanners1795996106374 } from './1795996106374-ScriptedPlanners';
import { Runs1795996143798 } from './1795996143798-Runs';
import { Screens1795996831071 } from './1795996831071-Screens';
import { StepTimings1795998976015 } from './1795998976015-StepTimings';
import { Models1796000813014 } from './1796000813014-Models';
import { StepDoneNotify1796085520653 } from './1796085520653-StepDoneNotify';
import { TenantPause1796088325955 } from './1796088325955-TenantPause';
import { StepFailures1796089815632 } from './1796089815632-StepFailures';
import { RunVolatileMask1796090424405 } from './1796090424405-RunVolatileMask';
import { SecretGrants1796180000000 } from './1796180000000-SecretGrants';
import { CommitPointApproval1796270000000 } from './1796270000000-CommitPointApproval';
import { ApproverGroups1796271500000 } from './1796271500000-ApproverGroups';
import { Deliveries1796273150000 } from './1796273150000-Deliveries';
import { ConsoleSessions1796350000000 } from './1796350000000-ConsoleSessions';
import { AuditSinks1796360000000 } from './1796360000000-AuditSinks';
import { InjectionRail1796370000000 } from './1796370000000-InjectionRail';
import { ScreenRetention1796380000000 } from './1796380000000-ScreenRetention';
import { ScreenEncryption1796390000000 } from './1796390000000-ScreenEncryption';
import { ScreenRedaction1796395000000 } from './1796395000000-ScreenRedaction';
import { CachedTokens1796400000000 } from './1796400000000-CachedTokens';
import { SendingSteps1796410000000 } from './1796410000000-SendingSteps';
import { DestinationGrants1796430000000 } from './1796430000000-DestinationGrants';
import { ApproversTyped1796440000000 } from './1796440000000-ApproversTyped';
import { WriteReceipts1796450000000 } from './1796450000000-WriteReceipts';
import { StepLabelEvidence1796460000000 } from './1796460000000-StepLabelEvidence';
import { PlannerAccess1796470000000 } from './1796470000000-PlannerAccess';
import { RemotePlanners1796480000000 } from './1796480000000-RemotePlanners';
import { RoutineRuns1796490000000 } from './1796490000000-RoutineRuns';
import { StepEdit1796500000000 } from './1796500000000-StepEdit';
import { ChatDecisions1796510000000 } from './1796510000000-ChatDecisions';
import { ApprovalRedaction1796510500000 } from './1796510500000-ApprovalRedaction';
import { ScriptGrants1796515000000 } from './1796515000000-ScriptGrants';
import { WorkerHeartbeatToken1796516000000 } from './1796516000000-WorkerHeartbeatToken';
import { StepBatch1796520000000 } from './1796520000000-StepBatch';
import { Oversight1796521000000 } from './1796521000000-Oversight';
import { TestApprovals1796530000000 } from './1796530000000-TestApprovals';
import { ApprovalMaskState1796547000000 } from './1796547000000-ApprovalMaskState';

/** Every migration, in order. TypeORM 1.x takes class references here, not globs. */
export const MIGRATIONS: Array<new () => MigrationInterface> = [
  Foundation1795994511380,
  Settings1795996018853,
  ScriptedPlanners1795996106374,
  Runs1795996143798,
  Screens1795996831071,
  StepTimings1795998976015,
  Models1796000813014,
  StepDoneNotify1796085520653,
  TenantPause1796088325955,
  StepFailures1796089815632,
  RunVolatileMask1796090424405,
  SecretGrants1796180000000,
  CommitPointApproval1796270000000,
  ApproverGroups1796271500000,
  Deliveries1796273150000,
  ConsoleSessions1796350000000,
  AuditSinks1796360000000,
  InjectionRail1796370000000,
  ScreenRetention1796380000000,
  ScreenEncryption1796390000000,
  ScreenRedaction1796395000000,
  CachedTokens1796400000000,
  SendingSteps1796410000000,
  DestinationGrants1796430000000,
  ApproversTyped1796440000000,
  WriteReceipts1796450000000,
  StepLabelEvidence1796460000000,
  PlannerAccess1796470000000,
  RemotePlanners1796480000000,
  RoutineRuns1796490000000,
  StepEdit1796500000000,
  ChatDecisions1796510000000,
  ApprovalRedaction1796510500000,
  ScriptGrants1796515000000,
  WorkerHeartbeatToken1796516000000,
  StepBatch1796520000000,
  Oversight1796521000000,
  TestApprovals1796530000000,
  ApprovalMaskState1796547000000,
];
