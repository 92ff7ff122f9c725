// GENERATED CODE! DO NOT MODIFY BY HAND! (template: xtask/src/codegen/npm/index.d.ts.head)
//
// The Codex app-server protocol: TypeScript declarations of every message, and a validator
// that checks a message against the JSON Schema generated from the same Rust types.

export * from "./types/index";

/** One reason a value does not match a schema. */
export interface ValidationIssue {
  /** JSON Pointer into the value (`""` for the value itself). */
  path: string;
  /** The JSON Schema keyword that failed (`type`, `required`, `enum`, ...). */
  keyword: string;
  /** What is wrong, in words. */
  message: string;
}

/** A value that does not match its schema; `issues` says where and why. */
export declare class SchemaError extends Error {
  readonly schemaName: string;
  readonly issues: ValidationIssue[];
  constructor(schemaName: string, issues: ValidationIssue[]);
}

/** Validators for every definition of the schema bundle, compiled on first use. */
export declare class Validator {
  /** `bundle` defaults to the one in this package. */
  constructor(options?: { bundle?: object });
  /** Every definition name of the bundle, sorted. */
  readonly names: readonly string[];
  /** Why `value` does not match definition `name` (empty when it does); throws when the
   * bundle has no such definition. */
  issues(name: string, value: unknown): ValidationIssue[];
  /** Whether `value` matches definition `name`, narrowing it to the declared type. */
  is<N extends SchemaName>(name: N, value: unknown): value is SchemaTypes[N];
  /** `value` typed by its definition when it matches; throws `SchemaError` otherwise. */
  check<N extends SchemaName>(name: N, value: unknown): SchemaTypes[N];
}

/** The JSON Schema bundle (draft 2020-12), every definition under `$defs`. */
export declare const bundle: object;

/** A bundle definition whose TypeScript declaration has the same name. */
export type SchemaName = keyof SchemaTypes;

import type * as Types from "./types/index";

/** Bundle definition name -> its TypeScript declaration. */
export interface SchemaTypes {
  AgentMessageDelivery: Types.AgentMessageDelivery;
  AgentMessageDeltaNotification: Types.v2.AgentMessageDeltaNotification;
  AgentMessageDisplay: Types.v2.AgentMessageDisplay;
  AgentMessageModeration: Types.v2.AgentMessageModeration;
  AnswerAnnotation: Types.v2.AnswerAnnotation;
  AnswerReplacement: Types.v2.AnswerReplacement;
  AsyncUserInputQuestion: Types.AsyncUserInputQuestion;
  BlockReason: Types.v2.BlockReason;
  ClientInfo: Types.ClientInfo;
  ClientNotification: Types.ClientNotification;
  ClientRequest: Types.ClientRequest;
  CollabAgentState: Types.v2.CollabAgentState;
  CollabAgentStatus: Types.v2.CollabAgentStatus;
  CommandAction: Types.v2.CommandAction;
  CommandExecutionApprovalDecision: Types.v2.CommandExecutionApprovalDecision;
  CommandExecutionOutputDeltaNotification: Types.v2.CommandExecutionOutputDeltaNotification;
  CommandExecutionRequestApprovalParams: Types.v2.CommandExecutionRequestApprovalParams;
  CommandExecutionRequestApprovalResponse: Types.v2.CommandExecutionRequestApprovalResponse;
  CommandExecutionSource: Types.v2.CommandExecutionSource;
  ConfigReadParams: Types.v2.ConfigReadParams;
  ConfigReadResponse: Types.v2.ConfigReadResponse;
  ConfigRequirementsReadResponse: Types.v2.ConfigRequirementsReadResponse;
  DeprecationNoticeNotification: Types.v2.DeprecationNoticeNotification;
  ErrorNotification: Types.v2.ErrorNotification;
  FileChangeApprovalDecision: Types.v2.FileChangeApprovalDecision;
  FileChangeRequestApprovalParams: Types.v2.FileChangeRequestApprovalParams;
  FileChangeRequestApprovalResponse: Types.v2.FileChangeRequestApprovalResponse;
  FileUpdateChange: Types.v2.FileUpdateChange;
  FunctionCallOutputBody: Types.FunctionCallOutputBody;
  FunctionCallOutputContentItem: Types.FunctionCallOutputContentItem;
  GetAccountParams: Types.v2.GetAccountParams;
  GetAccountResponse: Types.v2.GetAccountResponse;
  HelplineSubject: Types.v2.HelplineSubject;
  ImageDetail: Types.ImageDetail;
  InitializeParams: Types.InitializeParams;
  InitializeResponse: Types.InitializeResponse;
  ItemCompletedNotification: Types.v2.ItemCompletedNotification;
  ItemStartedNotification: Types.v2.ItemStartedNotification;
  JSONRPCError: Types.JSONRPCError;
  JSONRPCErrorError: Types.JSONRPCErrorError;
  JSONRPCMessage: Types.JSONRPCMessage;
  JSONRPCNotification: Types.JSONRPCNotification;
  JSONRPCRequest: Types.JSONRPCRequest;
  JSONRPCResponse: Types.JSONRPCResponse;
  McpAppContext: Types.v2.McpAppContext;
  McpAppDisplayMode: Types.v2.McpAppDisplayMode;
  McpToolCallResult: Types.v2.McpToolCallResult;
  MessagePhase: Types.MessagePhase;
  Model: Types.v2.Model;
  ModelListParams: Types.v2.ModelListParams;
  ModelListResponse: Types.v2.ModelListResponse;
  PatchChangeKind: Types.v2.PatchChangeKind;
  PlanDeltaNotification: Types.v2.PlanDeltaNotification;
  ReasoningEffortOption: Types.v2.ReasoningEffortOption;
  ReasoningSummaryPartAddedNotification: Types.v2.ReasoningSummaryPartAddedNotification;
  ReasoningSummaryTextDeltaNotification: Types.v2.ReasoningSummaryTextDeltaNotification;
  ReasoningTextDeltaNotification: Types.v2.ReasoningTextDeltaNotification;
  RequestId: Types.RequestId;
  ServerNotification: Types.ServerNotification;
  ServerRequest: Types.ServerRequest;
  ServerRequestResolvedNotification: Types.v2.ServerRequestResolvedNotification;
  SessionSource: Types.v2.SessionSource;
  SkillsListParams: Types.v2.SkillsListParams;
  SkillsListResponse: Types.v2.SkillsListResponse;
  SortDirection: Types.v2.SortDirection;
  TerminalInteractionNotification: Types.v2.TerminalInteractionNotification;
  Thread: Types.v2.Thread;
  ThreadActiveFlag: Types.v2.ThreadActiveFlag;
  ThreadHistoryMode: Types.v2.ThreadHistoryMode;
  ThreadItem: Types.v2.ThreadItem;
  ThreadItemEntry: Types.v2.ThreadItemEntry;
  ThreadItemsListParams: Types.v2.ThreadItemsListParams;
  ThreadItemsListResponse: Types.v2.ThreadItemsListResponse;
  ThreadListCwdFilter: Types.v2.ThreadListCwdFilter;
  ThreadListParams: Types.v2.ThreadListParams;
  ThreadListResponse: Types.v2.ThreadListResponse;
  ThreadLoadedListParams: Types.v2.ThreadLoadedListParams;
  ThreadLoadedListResponse: Types.v2.ThreadLoadedListResponse;
  ThreadNameUpdatedNotification: Types.v2.ThreadNameUpdatedNotification;
  ThreadReadParams: Types.v2.ThreadReadParams;
  ThreadReadResponse: Types.v2.ThreadReadResponse;
  ThreadResumeParams: Types.v2.ThreadResumeParams;
  ThreadResumeResponse: Types.v2.ThreadResumeResponse;
  ThreadRollbackParams: Types.v2.ThreadRollbackParams;
  ThreadRollbackResponse: Types.v2.ThreadRollbackResponse;
  ThreadSortKey: Types.v2.ThreadSortKey;
  ThreadSource: Types.v2.ThreadSource;
  ThreadStartParams: Types.v2.ThreadStartParams;
  ThreadStartResponse: Types.v2.ThreadStartResponse;
  ThreadStartedNotification: Types.v2.ThreadStartedNotification;
  ThreadStatus: Types.v2.ThreadStatus;
  ThreadStatusChangedNotification: Types.v2.ThreadStatusChangedNotification;
  ThreadTokenUsage: Types.v2.ThreadTokenUsage;
  ThreadTokenUsageUpdatedNotification: Types.v2.ThreadTokenUsageUpdatedNotification;
  ThreadTurnsListParams: Types.v2.ThreadTurnsListParams;
  ThreadTurnsListResponse: Types.v2.ThreadTurnsListResponse;
  ThreadUnsubscribeParams: Types.v2.ThreadUnsubscribeParams;
  ThreadUnsubscribeResponse: Types.v2.ThreadUnsubscribeResponse;
  ThreadUnsubscribeStatus: Types.v2.ThreadUnsubscribeStatus;
  TimedThreadItem: Types.v2.TimedThreadItem;
  TokenUsageBreakdown: Types.v2.TokenUsageBreakdown;
  TrustedContacts: Types.v2.TrustedContacts;
  Turn: Types.v2.Turn;
  TurnCompletedNotification: Types.v2.TurnCompletedNotification;
  TurnDiffUpdatedNotification: Types.v2.TurnDiffUpdatedNotification;
  TurnError: Types.v2.TurnError;
  TurnInterruptParams: Types.v2.TurnInterruptParams;
  TurnInterruptResponse: Types.v2.TurnInterruptResponse;
  TurnItemsView: Types.v2.TurnItemsView;
  TurnStartParams: Types.v2.TurnStartParams;
  TurnStartResponse: Types.v2.TurnStartResponse;
  TurnStartedNotification: Types.v2.TurnStartedNotification;
  TurnStatus: Types.v2.TurnStatus;
  WarningNotification: Types.v2.WarningNotification;
}
