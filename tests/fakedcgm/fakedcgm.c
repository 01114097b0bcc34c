/*
 * A fake libdcgm for gpuscope's tests: the DCGM 4 C API subset gpuscope binds, with the same symbols and ABI
 * (struct layouts and version words as in DCGM 4.6.0's dcgm_structs.h, written out again here), over a model of
 * GPUs, MIG entities and field values that the tests set up and change at run time.
 *
 * The model is changed with lines of text, given to fake_apply() (tests, through ctypes on the same library) or
 * read from the file named by $GPUSCOPE_FAKEDCGM_MODEL at the first dcgmInit (the exporter started as a process):
 *
 *   gpu ID UUID BUSID NAME...            a GPU (DCGM gpu id ID)
 *   prof ID supported|unsupported|busy   its profiling module state (busy: held by another client)
 *   gi EID GPU NVML_GI SLICES PROFILE [UUID]  a MIG GPU instance entity; ci EID GI_EID NVML_CI a compute instance
 *   value none|gpu|gi|ci ID FIELD i|d VALUE [TS]   a value (VALUE may be blank, blank-notfound, blank-unsupported,
 *   value gpu|gi|ci ID FIELD s TEXT...        blank-noperm); status gpu|gi|ci ID FIELD CODE: a per-value error
 *   version client|engine X.Y.Z           the library's / host engine's version; refuse-major 1: connecting to
 *                                          an engine of another major version fails with VER_MISMATCH
 *   listen ADDRESS                         an address dcgmConnect_v2 accepts (TCP host:port or socket path)
 *   engine down|up|restart                 the host engine dies / comes back (forgetting groups and watches)
 *   fail FUNCTION CODE [COUNT]             the next COUNT (default 1, -1 forever) calls return CODE
 *   hang FUNCTION MS                       the next call blocks MS milliseconds (fake_release() ends it early)
 *   module-profiling STATUS                what dcgmModuleGetStatuses says of the profiling module (5: paused,
 *                                          profiling watches fail with DCGM_ST_PAUSED)
 *   incident gpu ID SYSTEM HEALTH CODE MSG...  a health incident; clear-incidents
 *   reset                                  forget everything
 *
 * fake_calls(NAME) counts calls per function since the last reset (every function for "").
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- DCGM 4.6.0 types (dcgm_structs.h) --------------------------------------------------------------------- */
typedef uintptr_t dcgmHandle_t;
typedef uintptr_t dcgmGpuGrp_t;
typedef uintptr_t dcgmFieldGrp_t;
#define MAKE_DCGM_VERSION(t, v) (unsigned int)(sizeof(t) | ((unsigned long)(v) << 24U))
#define DCGM_MAX_STR_LENGTH 256
#define DCGM_MAX_NUM_DEVICES 32
#define DCGM_MAX_HIERARCHY_INFO (DCGM_MAX_NUM_DEVICES * 14)
#define DCGM_GROUP_MAX_ENTITIES_V2 1024

enum { ST_OK = 0, ST_BADPARAM = -1, ST_GENERIC = -3, ST_INIT_ERROR = -7, ST_UNINITIALIZED = -10, ST_VER_MISMATCH = -12,
       ST_NO_DATA = -14, ST_NOT_WATCHED = -16, ST_GPU_IS_LOST = -18, ST_CONNECTION_NOT_VALID = -21,
       ST_IN_USE = -34, ST_PROFILING_NOT_SUPPORTED = -36, ST_PAUSED = -54, ST_ALREADY_INITIALIZED = -55 };
enum { FE_NONE = 0, FE_GPU = 1, FE_GPU_I = 4, FE_GPU_CI = 5 };

typedef struct { int entityGroupId; unsigned int entityId; } dcgmGroupEntityPair_t;
typedef struct { unsigned int version, persistAfterDisconnect, timeoutMs, addressIsUnixSocket; } dcgmConnectV2Params_v2;
typedef struct { unsigned int version; char rawBuildInfoString[DCGM_MAX_STR_LENGTH * 2]; } dcgmVersionInfo_v2;
typedef struct {
    unsigned int version; int entityGroupId; unsigned int entityId; unsigned short fieldId; unsigned short fieldType;
    int status; unsigned int unused; int64_t ts;
    union { int64_t i64; double dbl; char str[DCGM_MAX_STR_LENGTH]; char blob[4096]; } value;
} dcgmFieldValue_v2;
typedef struct {
    char gpuUuid[128]; unsigned int nvmlGpuIndex, nvmlInstanceId, nvmlComputeInstanceId, nvmlMigProfileId,
        nvmlProfileSlices;
} dcgmMigEntityInfo_t;
typedef struct { dcgmGroupEntityPair_t entity, parent; dcgmMigEntityInfo_t info; } dcgmMigHierarchyInfo_v2;
typedef struct { unsigned int version, count; dcgmMigHierarchyInfo_v2 entityList[DCGM_MAX_HIERARCHY_INFO]; } dcgmMigHierarchy_v2;
typedef struct { char msg[1024]; unsigned int code; } dcgmDiagErrorDetail_t;
typedef struct { unsigned int system, health; dcgmDiagErrorDetail_t error; dcgmGroupEntityPair_t entityInfo; } dcgmIncidentInfo_t;
typedef struct {
    unsigned int version, overallHealth, incidentCount; dcgmIncidentInfo_t incidents[DCGM_GROUP_MAX_ENTITIES_V2];
} dcgmHealthResponse_v5;
typedef struct { unsigned short majorId, minorId; unsigned int numFieldIds; unsigned short fieldIds[64]; } dcgmProfMetricGroupInfo_v2;
typedef struct {
    unsigned int version, unused, gpuId, numMetricGroups; dcgmProfMetricGroupInfo_v2 metricGroups[10];
} dcgmProfGetMetricGroups_v3;
typedef struct { int id, status; } dcgmModuleGetStatusesModule_t;
typedef struct { unsigned int version, numStatuses; dcgmModuleGetStatusesModule_t statuses[16]; } dcgmModuleGetStatuses_v1;

#define INT64_BLANK 0x7ffffffffffffff0LL
#define FP64_BLANK 140737488355328.0

/* ---- the model ------------------------------------------------------------------------------------------------ */
#define MAX_GPUS 32
#define MAX_MIG 256
#define MAX_VALUES 16384
#define MAX_GROUPS 64
#define MAX_FGROUPS 64
#define MAX_WATCHES 256
#define MAX_RULES 32
#define MAX_INCIDENTS 64
#define MAX_FUNCS 32

typedef struct { int used, id, prof; char uuid[80], busid[32], name[96]; } Gpu; /* prof: 0 none, 1 ok, 2 busy */
typedef struct { int used, kind, eid, parent, nvml_id, slices; char profile[32], uuid[80]; } Mig;
typedef struct { int used, kind, eid, field, type, status; int64_t i64, ts; double dbl; char str[256]; } Value;
typedef struct { int used, count; dcgmGroupEntityPair_t e[DCGM_GROUP_MAX_ENTITIES_V2]; unsigned int health; } Group;
typedef struct { int used, count; unsigned short f[128]; } FieldGroup;
typedef struct { int used; int group, fgroup; } Watch;
typedef struct { char fn[48]; int code, count, hang_ms; } Rule;
typedef struct { int kind, eid; unsigned int system, health, code; char msg[128]; } Incident;
typedef struct { char fn[48]; unsigned int calls; } Counter;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static volatile int released;
static int configured, initialized, engine_up = 1, generation = 1, refuse_major, module_profiling = 3;
static char client_version[32] = "4.6.0", engine_version[32] = "4.6.0";
static char listen_addr[8][128];
static Gpu gpus[MAX_GPUS];
static Mig migs[MAX_MIG];
static Value values[MAX_VALUES];
static Group groups[MAX_GROUPS];
static FieldGroup fgroups[MAX_FGROUPS];
static Watch watches[MAX_WATCHES];
static Rule rules[MAX_RULES];
static Incident incidents[MAX_INCIDENTS];
static int n_incidents;
static Counter counters[MAX_FUNCS];

static void reset_locked(void) {
    memset(gpus, 0, sizeof gpus); memset(migs, 0, sizeof migs); memset(values, 0, sizeof values);
    memset(groups, 0, sizeof groups); memset(fgroups, 0, sizeof fgroups); memset(watches, 0, sizeof watches);
    memset(rules, 0, sizeof rules); memset(counters, 0, sizeof counters); memset(listen_addr, 0, sizeof listen_addr);
    n_incidents = 0; engine_up = 1; generation = 1; refuse_major = 0; module_profiling = 3; initialized = 0;
    strcpy(client_version, "4.6.0"); strcpy(engine_version, "4.6.0");
}

static int64_t now_us(void) {
    struct timespec t; clock_gettime(CLOCK_REALTIME, &t);
    return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

static int kind_of(const char *s) {
    if (!s) return -1;
    if (!strcmp(s, "gpu")) return FE_GPU;
    if (!strcmp(s, "gi")) return FE_GPU_I;
    if (!strcmp(s, "ci")) return FE_GPU_CI;
    if (!strcmp(s, "none")) return FE_NONE;
    return -1;
}

static Value *find_value(int kind, int eid, int field, int create) {
    Value *free_slot = NULL;
    for (int i = 0; i < MAX_VALUES; i++) {
        Value *v = &values[i];
        if (v->used && v->kind == kind && v->eid == eid && v->field == field) return v;
        if (!v->used && !free_slot) free_slot = v;
    }
    if (!create || !free_slot) return NULL;
    memset(free_slot, 0, sizeof *free_slot);
    free_slot->used = 1; free_slot->kind = kind; free_slot->eid = eid; free_slot->field = field;
    return free_slot;
}

static Gpu *find_gpu(int id) {
    for (int i = 0; i < MAX_GPUS; i++) if (gpus[i].used && gpus[i].id == id) return &gpus[i];
    return NULL;
}

static Mig *find_mig(int kind, int eid) {
    for (int i = 0; i < MAX_MIG; i++) if (migs[i].used && migs[i].kind == kind && migs[i].eid == eid) return &migs[i];
    return NULL;
}

static const char *rest(char *save) { while (save && *save == ' ') save++; return save ? save : ""; }

static int blank_offset(const char *tok) {
    if (!strcmp(tok, "blank")) return 0;
    if (!strcmp(tok, "blank-notfound")) return 1;
    if (!strcmp(tok, "blank-unsupported")) return 2;
    if (!strcmp(tok, "blank-noperm")) return 3;
    return -1;
}

static int apply_locked(const char *input) {
    char line[1024], *save = NULL;
    snprintf(line, sizeof line, "%s", input);
    line[strcspn(line, "\r\n")] = 0;
    char *cmd = strtok_r(line, " ", &save);
    if (!cmd || cmd[0] == '#') return 0;
    configured = 1;
    if (!strcmp(cmd, "reset")) { reset_locked(); configured = 1; return 0; }
    if (!strcmp(cmd, "gpu")) {
        char *id = strtok_r(NULL, " ", &save), *uuid = strtok_r(NULL, " ", &save), *busid = strtok_r(NULL, " ", &save);
        if (!id || !uuid || !busid) return -1;
        for (int i = 0; i < MAX_GPUS; i++) if (!gpus[i].used) {
            gpus[i].used = 1; gpus[i].id = atoi(id); gpus[i].prof = 1;
            snprintf(gpus[i].uuid, sizeof gpus[i].uuid, "%s", uuid);
            snprintf(gpus[i].busid, sizeof gpus[i].busid, "%s", busid);
            snprintf(gpus[i].name, sizeof gpus[i].name, "%s", rest(save));
            return 0;
        }
        return -1;
    }
    if (!strcmp(cmd, "prof")) {
        char *id = strtok_r(NULL, " ", &save), *state = strtok_r(NULL, " ", &save);
        Gpu *g = id ? find_gpu(atoi(id)) : NULL;
        if (!g || !state) return -1;
        g->prof = !strcmp(state, "unsupported") ? 0 : !strcmp(state, "busy") ? 2 : 1;
        return 0;
    }
    if (!strcmp(cmd, "gi") || !strcmp(cmd, "ci")) {
        int is_gi = cmd[1] == 'i' && cmd[0] == 'g';
        char *eid = strtok_r(NULL, " ", &save), *parent = strtok_r(NULL, " ", &save), *nvml = strtok_r(NULL, " ", &save);
        if (!eid || !parent || !nvml) return -1;
        for (int i = 0; i < MAX_MIG; i++) if (!migs[i].used) {
            Mig *m = &migs[i];
            m->used = 1; m->kind = is_gi ? FE_GPU_I : FE_GPU_CI; m->eid = atoi(eid); m->parent = atoi(parent);
            m->nvml_id = atoi(nvml);
            if (is_gi) {
                char *slices = strtok_r(NULL, " ", &save), *profile = strtok_r(NULL, " ", &save);
                if (!slices || !profile) return -1;
                char *uuid = strtok_r(NULL, " ", &save);
                m->slices = atoi(slices); snprintf(m->profile, sizeof m->profile, "%s", profile);
                if (uuid) snprintf(m->uuid, sizeof m->uuid, "%s", uuid);
            }
            return 0;
        }
        return -1;
    }
    if (!strcmp(cmd, "value") || !strcmp(cmd, "status") || !strcmp(cmd, "clear")) {
        int kind = kind_of(strtok_r(NULL, " ", &save));
        char *eid = strtok_r(NULL, " ", &save), *field = strtok_r(NULL, " ", &save);
        if (kind < 0 || !eid || !field) return -1;
        if (!strcmp(cmd, "clear")) {
            Value *v = find_value(kind, atoi(eid), atoi(field), 0);
            if (v) v->used = 0;
            return 0;
        }
        Value *v = find_value(kind, atoi(eid), atoi(field), 1);
        if (!v) return -1;
        if (!strcmp(cmd, "status")) { char *code = strtok_r(NULL, " ", &save); if (!code) return -1; v->status = atoi(code); return 0; }
        char *type = strtok_r(NULL, " ", &save);
        if (!type) return -1;
        v->status = 0; v->ts = 0;
        if (type[0] == 's') { v->type = 's'; snprintf(v->str, sizeof v->str, "%s", rest(save)); return 0; }
        char *val = strtok_r(NULL, " ", &save), *ts = strtok_r(NULL, " ", &save);
        if (!val || (type[0] != 'i' && type[0] != 'd')) return -1;
        v->type = type[0];
        int blank = blank_offset(val);
        if (v->type == 'i') v->i64 = blank >= 0 ? INT64_BLANK + blank : strtoll(val, NULL, 10);
        else v->dbl = blank >= 0 ? FP64_BLANK + blank : strtod(val, NULL);
        if (ts) v->ts = strtoll(ts, NULL, 10);
        return 0;
    }
    if (!strcmp(cmd, "version")) {
        char *which = strtok_r(NULL, " ", &save), *ver = strtok_r(NULL, " ", &save);
        if (!which || !ver) return -1;
        snprintf(!strcmp(which, "client") ? client_version : engine_version, 32, "%s", ver);
        return 0;
    }
    if (!strcmp(cmd, "refuse-major")) { char *v = strtok_r(NULL, " ", &save); refuse_major = v ? atoi(v) : 1; return 0; }
    if (!strcmp(cmd, "module-profiling")) { char *v = strtok_r(NULL, " ", &save); if (!v) return -1; module_profiling = atoi(v); return 0; }
    if (!strcmp(cmd, "listen")) {
        char *a = strtok_r(NULL, " ", &save);
        if (!a) return -1;
        for (int i = 0; i < 8; i++) if (!listen_addr[i][0]) { snprintf(listen_addr[i], 128, "%s", a); return 0; }
        return -1;
    }
    if (!strcmp(cmd, "engine")) {
        char *s = strtok_r(NULL, " ", &save);
        if (!s) return -1;
        if (!strcmp(s, "down")) engine_up = 0;
        else if (!strcmp(s, "up") || !strcmp(s, "restart")) {
            if (!strcmp(s, "restart") || !engine_up) {
                /* A new host engine process: handles, groups and watches of the old one are gone. */
                generation++;
                memset(groups, 0, sizeof groups); memset(fgroups, 0, sizeof fgroups); memset(watches, 0, sizeof watches);
            }
            engine_up = 1;
        } else return -1;
        return 0;
    }
    if (!strcmp(cmd, "fail") || !strcmp(cmd, "hang")) {
        char *fn = strtok_r(NULL, " ", &save), *a = strtok_r(NULL, " ", &save), *b = strtok_r(NULL, " ", &save);
        if (!fn || !a) return -1;
        for (int i = 0; i < MAX_RULES; i++) if (!rules[i].fn[0]) {
            snprintf(rules[i].fn, sizeof rules[i].fn, "%s", fn);
            if (cmd[0] == 'f') { rules[i].code = atoi(a); rules[i].count = b ? atoi(b) : 1; }
            else { rules[i].hang_ms = atoi(a); rules[i].count = 1; released = 0; }
            return 0;
        }
        return -1;
    }
    if (!strcmp(cmd, "incident")) {
        int kind = kind_of(strtok_r(NULL, " ", &save));
        char *eid = strtok_r(NULL, " ", &save), *sys = strtok_r(NULL, " ", &save), *health = strtok_r(NULL, " ", &save),
             *code = strtok_r(NULL, " ", &save);
        if (kind < 0 || !eid || !sys || !health || !code || n_incidents >= MAX_INCIDENTS) return -1;
        Incident *in = &incidents[n_incidents++];
        in->kind = kind; in->eid = atoi(eid); in->system = (unsigned int)strtoul(sys, NULL, 0);
        in->health = (unsigned int)atoi(health); in->code = (unsigned int)atoi(code);
        snprintf(in->msg, sizeof in->msg, "%s", rest(save));
        return 0;
    }
    if (!strcmp(cmd, "clear-incidents")) { n_incidents = 0; return 0; }
    return -1;
}

/* ---- control API (tests) ------------------------------------------------------------------------------------- */
int fake_apply(const char *line) { pthread_mutex_lock(&mu); int rc = apply_locked(line); pthread_mutex_unlock(&mu); return rc; }
void fake_release(void) { released = 1; }
unsigned int fake_calls(const char *fn) {
    unsigned int n = 0;
    pthread_mutex_lock(&mu);
    for (int i = 0; i < MAX_FUNCS; i++)
        if (counters[i].fn[0] && (!fn[0] || !strcmp(counters[i].fn, fn))) n += counters[i].calls;
    pthread_mutex_unlock(&mu);
    return n;
}
int fake_watch_count(void) {
    int n = 0;
    pthread_mutex_lock(&mu);
    for (int i = 0; i < MAX_WATCHES; i++) n += watches[i].used;
    pthread_mutex_unlock(&mu);
    return n;
}

static void load_model_locked(void) {
    const char *path = getenv("GPUSCOPE_FAKEDCGM_MODEL");
    if (configured || !path) return;
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[1024];
    while (fgets(line, sizeof line, f)) apply_locked(line);
    fclose(f);
    configured = 1;
}

/* Count the call, apply fail/hang rules. Returns ST_OK to proceed, an error code to return. Takes the lock. */
static int enter(const char *fn) {
    pthread_mutex_lock(&mu);
    int slot = -1;
    for (int i = 0; i < MAX_FUNCS; i++) {
        if (!strcmp(counters[i].fn, fn)) { slot = i; break; }
        if (!counters[i].fn[0]) { snprintf(counters[i].fn, sizeof counters[i].fn, "%s", fn); slot = i; break; }
    }
    if (slot >= 0) counters[slot].calls++;
    int hang = 0, code = ST_OK;
    for (int i = 0; i < MAX_RULES; i++) {
        Rule *r = &rules[i];
        if (!r->fn[0] || strcmp(r->fn, fn) || r->count == 0) continue;
        if (r->hang_ms) hang = r->hang_ms; else code = r->code;
        if (r->count > 0 && --r->count == 0) r->fn[0] = 0;
        break;
    }
    if (hang) {
        pthread_mutex_unlock(&mu);
        for (int waited = 0; waited < hang && !released; waited += 5) usleep(5000);
        pthread_mutex_lock(&mu);
    }
    if (code != ST_OK) { pthread_mutex_unlock(&mu); return code; }
    return ST_OK;
}
#define ENTER(fn) do { int rc_ = enter(fn); if (rc_ != ST_OK) return rc_; } while (0)
#define LEAVE(rc) do { int r_ = (rc); pthread_mutex_unlock(&mu); return r_; } while (0)

static int handle_ok(dcgmHandle_t h) { return initialized && engine_up && h == (dcgmHandle_t)(1000 + generation); }
#define NEED_HANDLE(h) do { if (!initialized) LEAVE(ST_UNINITIALIZED); if (!handle_ok(h)) LEAVE(ST_CONNECTION_NOT_VALID); } while (0)

/* ---- the DCGM API ------------------------------------------------------------------------------------------- */
int dcgmInit(void) { ENTER("dcgmInit"); load_model_locked(); initialized = 1; LEAVE(ST_OK); }
int dcgmShutdown(void) { ENTER("dcgmShutdown"); initialized = 0; LEAVE(ST_OK); }
const char *errorString(int code) {
    switch (code) {
    case ST_OK: return "Success";
    case ST_CONNECTION_NOT_VALID: return "Host engine connection invalid/disconnected";
    case ST_VER_MISMATCH: return "Version mismatch between the DCGM library and the host engine";
    case ST_IN_USE: return "The requested resource is already in use";
    default: return "Unknown error";
    }
}

int dcgmStartEmbedded(int mode, dcgmHandle_t *out) {
    ENTER("dcgmStartEmbedded");
    if (!initialized) LEAVE(ST_UNINITIALIZED);
    if (mode != 1 && mode != 2) LEAVE(ST_BADPARAM);
    if (!engine_up) LEAVE(ST_INIT_ERROR);
    *out = (dcgmHandle_t)(1000 + generation);
    LEAVE(ST_OK);
}
int dcgmStopEmbedded(dcgmHandle_t h) { ENTER("dcgmStopEmbedded"); (void)h; LEAVE(ST_OK); }

static int major_of(const char *v) { return atoi(v); }

int dcgmConnect_v2(const char *address, dcgmConnectV2Params_v2 *params, dcgmHandle_t *out) {
    ENTER("dcgmConnect_v2");
    if (!initialized) LEAVE(ST_UNINITIALIZED);
    if (!params || params->version != MAKE_DCGM_VERSION(dcgmConnectV2Params_v2, 2)) LEAVE(ST_VER_MISMATCH);
    int known = 0;
    for (int i = 0; i < 8; i++) if (listen_addr[i][0] && !strcmp(listen_addr[i], address)) known = 1;
    if (!known || !engine_up) LEAVE(ST_CONNECTION_NOT_VALID);
    if (refuse_major && major_of(client_version) != major_of(engine_version)) LEAVE(ST_VER_MISMATCH);
    *out = (dcgmHandle_t)(1000 + generation);
    LEAVE(ST_OK);
}
int dcgmDisconnect(dcgmHandle_t h) { ENTER("dcgmDisconnect"); (void)h; LEAVE(ST_OK); }

static void build_info(dcgmVersionInfo_v2 *info, const char *version) {
    snprintf(info->rawBuildInfoString, sizeof info->rawBuildInfoString,
             "version:%s;arch:x86_64;buildtype:Release;buildid:fake;commit:fakedcgm;branch:fake", version);
}
int dcgmVersionInfo(dcgmVersionInfo_v2 *info) {
    ENTER("dcgmVersionInfo");
    if (!info || info->version != MAKE_DCGM_VERSION(dcgmVersionInfo_v2, 2)) LEAVE(ST_VER_MISMATCH);
    build_info(info, client_version);
    LEAVE(ST_OK);
}
int dcgmHostengineVersionInfo(dcgmHandle_t h, dcgmVersionInfo_v2 *info) {
    ENTER("dcgmHostengineVersionInfo");
    NEED_HANDLE(h);
    if (!info || info->version != MAKE_DCGM_VERSION(dcgmVersionInfo_v2, 2)) LEAVE(ST_VER_MISMATCH);
    build_info(info, engine_version);
    LEAVE(ST_OK);
}

int dcgmGetAllSupportedDevices(dcgmHandle_t h, unsigned int *ids, int *count) {
    ENTER("dcgmGetAllSupportedDevices");
    NEED_HANDLE(h);
    int n = 0;
    for (int i = 0; i < MAX_GPUS && n < DCGM_MAX_NUM_DEVICES; i++) if (gpus[i].used) ids[n++] = (unsigned int)gpus[i].id;
    *count = n;
    LEAVE(ST_OK);
}

int dcgmGetGpuInstanceHierarchy(dcgmHandle_t h, dcgmMigHierarchy_v2 *out) {
    ENTER("dcgmGetGpuInstanceHierarchy");
    NEED_HANDLE(h);
    if (!out || out->version != MAKE_DCGM_VERSION(dcgmMigHierarchy_v2, 2)) LEAVE(ST_VER_MISMATCH);
    out->count = 0;
    for (int i = 0; i < MAX_MIG && out->count < DCGM_MAX_HIERARCHY_INFO; i++) {
        Mig *m = &migs[i];
        if (!m->used) continue;
        dcgmMigHierarchyInfo_v2 *e = &out->entityList[out->count++];
        memset(e, 0, sizeof *e);
        e->entity.entityGroupId = m->kind; e->entity.entityId = (unsigned int)m->eid;
        e->parent.entityGroupId = m->kind == FE_GPU_I ? FE_GPU : FE_GPU_I; e->parent.entityId = (unsigned int)m->parent;
        int gpu_id = m->parent;
        if (m->kind == FE_GPU_CI) { Mig *gi = find_mig(FE_GPU_I, m->parent); gpu_id = gi ? gi->parent : -1; }
        Gpu *g = find_gpu(gpu_id);
        if (g) snprintf(e->info.gpuUuid, sizeof e->info.gpuUuid, "%s", g->uuid);
        e->info.nvmlGpuIndex = (unsigned int)gpu_id;
        e->info.nvmlInstanceId = m->kind == FE_GPU_I ? (unsigned int)m->nvml_id : 0;
        e->info.nvmlComputeInstanceId = m->kind == FE_GPU_CI ? (unsigned int)m->nvml_id : (unsigned int)-1;
        e->info.nvmlProfileSlices = (unsigned int)m->slices;
    }
    LEAVE(ST_OK);
}

static int entity_exists(int kind, int eid) {
    if (kind == FE_NONE) return eid == 0;
    if (kind == FE_GPU) return find_gpu(eid) != NULL;
    return find_mig(kind, eid) != NULL;
}

int dcgmGroupCreate(dcgmHandle_t h, int type, const char *name, dcgmGpuGrp_t *out) {
    ENTER("dcgmGroupCreate");
    NEED_HANDLE(h);
    (void)name;
    if (type != 1) LEAVE(ST_BADPARAM);
    for (int i = 0; i < MAX_GROUPS; i++) if (!groups[i].used) {
        memset(&groups[i], 0, sizeof groups[i]); groups[i].used = 1; *out = (dcgmGpuGrp_t)(i + 1); LEAVE(ST_OK);
    }
    LEAVE(ST_GENERIC);
}
static Group *group_at(dcgmGpuGrp_t g) { return g >= 1 && g <= MAX_GROUPS && groups[g - 1].used ? &groups[g - 1] : NULL; }
static FieldGroup *fgroup_at(dcgmFieldGrp_t g) {
    return g >= 1 && g <= MAX_FGROUPS && fgroups[g - 1].used ? &fgroups[g - 1] : NULL;
}
int dcgmGroupAddEntity(dcgmHandle_t h, dcgmGpuGrp_t grp, int kind, unsigned int eid) {
    ENTER("dcgmGroupAddEntity");
    NEED_HANDLE(h);
    Group *g = group_at(grp);
    if (!g || !entity_exists(kind, (int)eid) || g->count >= DCGM_GROUP_MAX_ENTITIES_V2) LEAVE(ST_BADPARAM);
    g->e[g->count].entityGroupId = kind; g->e[g->count].entityId = eid; g->count++;
    LEAVE(ST_OK);
}
int dcgmGroupDestroy(dcgmHandle_t h, dcgmGpuGrp_t grp) {
    ENTER("dcgmGroupDestroy");
    NEED_HANDLE(h);
    Group *g = group_at(grp);
    if (!g) LEAVE(ST_BADPARAM);
    g->used = 0;
    for (int i = 0; i < MAX_WATCHES; i++) if (watches[i].used && watches[i].group == (int)grp) watches[i].used = 0;
    LEAVE(ST_OK);
}
int dcgmFieldGroupCreate(dcgmHandle_t h, int n, unsigned short *ids, const char *name, dcgmFieldGrp_t *out) {
    ENTER("dcgmFieldGroupCreate");
    NEED_HANDLE(h);
    (void)name;
    if (n < 1 || n > 128) LEAVE(ST_BADPARAM);
    for (int i = 0; i < MAX_FGROUPS; i++) if (!fgroups[i].used) {
        fgroups[i].used = 1; fgroups[i].count = n; memcpy(fgroups[i].f, ids, sizeof(unsigned short) * (size_t)n);
        *out = (dcgmFieldGrp_t)(i + 1);
        LEAVE(ST_OK);
    }
    LEAVE(ST_GENERIC);
}
int dcgmFieldGroupDestroy(dcgmHandle_t h, dcgmFieldGrp_t fg) {
    ENTER("dcgmFieldGroupDestroy");
    NEED_HANDLE(h);
    FieldGroup *f = fgroup_at(fg);
    if (!f) LEAVE(ST_BADPARAM);
    f->used = 0;
    LEAVE(ST_OK);
}

static int is_prof(unsigned short f) { return f >= 1001 && f <= 1100; }

int dcgmWatchFields(dcgmHandle_t h, dcgmGpuGrp_t grp, dcgmFieldGrp_t fg, long long freq, double age, int samples) {
    ENTER("dcgmWatchFields");
    NEED_HANDLE(h);
    (void)samples;
    Group *g = group_at(grp);
    FieldGroup *f = fgroup_at(fg);
    if (!g || !f || freq <= 0 || age < 0) LEAVE(ST_BADPARAM);
    int prof = 0;
    for (int i = 0; i < f->count; i++) prof |= is_prof(f->f[i]);
    if (prof) {
        /* The profiling module: every GPU of the group must support it and none may be held by another client. */
        for (int i = 0; i < g->count; i++) {
            int gpu_id = (int)g->e[i].entityId;
            if (g->e[i].entityGroupId == FE_GPU_I) { Mig *m = find_mig(FE_GPU_I, gpu_id); gpu_id = m ? m->parent : -1; }
            Gpu *gpu = find_gpu(gpu_id);
            if (!gpu || gpu->prof == 0) LEAVE(ST_PROFILING_NOT_SUPPORTED);
            if (module_profiling == 5) LEAVE(ST_PAUSED);
            if (gpu->prof == 2) LEAVE(ST_IN_USE);
        }
    }
    for (int i = 0; i < MAX_WATCHES; i++) if (!watches[i].used) {
        watches[i].used = 1; watches[i].group = (int)grp; watches[i].fgroup = (int)fg; LEAVE(ST_OK);
    }
    LEAVE(ST_GENERIC);
}
int dcgmUnwatchFields(dcgmHandle_t h, dcgmGpuGrp_t grp, dcgmFieldGrp_t fg) {
    ENTER("dcgmUnwatchFields");
    NEED_HANDLE(h);
    for (int i = 0; i < MAX_WATCHES; i++)
        if (watches[i].used && watches[i].group == (int)grp && watches[i].fgroup == (int)fg) watches[i].used = 0;
    LEAVE(ST_OK);
}

static int watched(int kind, unsigned int eid, unsigned short field) {
    for (int w = 0; w < MAX_WATCHES; w++) {
        if (!watches[w].used) continue;
        Group *g = group_at((dcgmGpuGrp_t)watches[w].group);
        FieldGroup *f = fgroup_at((dcgmFieldGrp_t)watches[w].fgroup);
        if (!g || !f) continue;
        int has_field = 0;
        for (int i = 0; i < f->count && !has_field; i++) has_field = f->f[i] == field;
        if (!has_field) continue;
        for (int i = 0; i < g->count; i++) if (g->e[i].entityGroupId == kind && g->e[i].entityId == eid) return 1;
    }
    return 0;
}

static void fill_identity(dcgmFieldValue_v2 *out, Gpu *g, Mig *m, unsigned short field) {
    const char *text = NULL;
    if (g && field == 50) text = g->name;
    if (g && field == 54) text = g->uuid;
    if (g && field == 57) text = g->busid;
    if (m && field == 50) text = m->profile;
    if (m && field == 54 && m->uuid[0]) text = m->uuid;
    if (text) { out->fieldType = 's'; snprintf(out->value.str, sizeof out->value.str, "%s", text); }
    else out->status = ST_NO_DATA;
}

int dcgmEntitiesGetLatestValues(dcgmHandle_t h, dcgmGroupEntityPair_t *entities, unsigned int n_entities,
                                unsigned short *fields, unsigned int n_fields, unsigned int flags,
                                dcgmFieldValue_v2 *out) {
    ENTER("dcgmEntitiesGetLatestValues");
    NEED_HANDLE(h);
    if (!entities || !fields || !out || n_entities == 0 || n_fields == 0) LEAVE(ST_BADPARAM);
    int64_t now = now_us();
    for (unsigned int e = 0; e < n_entities; e++) {
        for (unsigned int f = 0; f < n_fields; f++) {
            dcgmFieldValue_v2 *v = &out[e * n_fields + f];
            memset(v, 0, offsetof(dcgmFieldValue_v2, value) + 8);
            v->version = MAKE_DCGM_VERSION(dcgmFieldValue_v2, 2);
            v->entityGroupId = entities[e].entityGroupId; v->entityId = entities[e].entityId;
            v->fieldId = fields[f]; v->ts = now;
            int kind = entities[e].entityGroupId, eid = (int)entities[e].entityId;
            if (!entity_exists(kind, eid)) { v->status = ST_BADPARAM; continue; }
            if (!(flags & 1) && !watched(kind, (unsigned int)eid, fields[f])) { v->status = ST_NOT_WATCHED; continue; }
            Value *m = find_value(kind, eid, fields[f], 0);
            if (!m) {
                fill_identity(v, kind == FE_GPU ? find_gpu(eid) : NULL, kind == FE_GPU_I ? find_mig(kind, eid) : NULL,
                              fields[f]);
                continue;
            }
            v->status = m->status;
            v->fieldType = (unsigned short)m->type;
            if (m->ts) v->ts = m->ts;
            if (m->type == 'i') v->value.i64 = m->i64;
            else if (m->type == 'd') v->value.dbl = m->dbl;
            else snprintf(v->value.str, sizeof v->value.str, "%s", m->str);
        }
    }
    LEAVE(ST_OK);
}

int dcgmHealthSet(dcgmHandle_t h, dcgmGpuGrp_t grp, unsigned int systems) {
    ENTER("dcgmHealthSet");
    NEED_HANDLE(h);
    Group *g = group_at(grp);
    if (!g) LEAVE(ST_BADPARAM);
    g->health = systems;
    LEAVE(ST_OK);
}
int dcgmHealthCheck(dcgmHandle_t h, dcgmGpuGrp_t grp, dcgmHealthResponse_v5 *out) {
    ENTER("dcgmHealthCheck");
    NEED_HANDLE(h);
    Group *g = group_at(grp);
    if (!g || !out) LEAVE(ST_BADPARAM);
    if (out->version != MAKE_DCGM_VERSION(dcgmHealthResponse_v5, 5)) LEAVE(ST_VER_MISMATCH);
    out->overallHealth = 0; out->incidentCount = 0;
    for (int i = 0; i < n_incidents; i++) {
        Incident *in = &incidents[i];
        int member = 0;
        for (int k = 0; k < g->count; k++) member |= g->e[k].entityGroupId == in->kind && (int)g->e[k].entityId == in->eid;
        if (!member || !(g->health & in->system)) continue;
        dcgmIncidentInfo_t *o = &out->incidents[out->incidentCount++];
        memset(o, 0, sizeof *o);
        o->system = in->system; o->health = in->health; o->error.code = in->code;
        snprintf(o->error.msg, sizeof o->error.msg, "%s", in->msg);
        o->entityInfo.entityGroupId = in->kind; o->entityInfo.entityId = (unsigned int)in->eid;
        if (in->health > out->overallHealth) out->overallHealth = in->health;
    }
    LEAVE(ST_OK);
}

int dcgmProfGetSupportedMetricGroups(dcgmHandle_t h, dcgmProfGetMetricGroups_v3 *req) {
    ENTER("dcgmProfGetSupportedMetricGroups");
    NEED_HANDLE(h);
    if (!req || req->version != MAKE_DCGM_VERSION(dcgmProfGetMetricGroups_v3, 3)) LEAVE(ST_VER_MISMATCH);
    Gpu *g = find_gpu((int)req->gpuId);
    if (!g) LEAVE(ST_BADPARAM);
    if (g->prof == 0) LEAVE(ST_PROFILING_NOT_SUPPORTED);
    req->numMetricGroups = 1;
    dcgmProfMetricGroupInfo_v2 *m = &req->metricGroups[0];
    m->majorId = 1; m->minorId = 0; m->numFieldIds = 0;
    for (unsigned short f = 1001; f <= 1016; f++) m->fieldIds[m->numFieldIds++] = f;
    LEAVE(ST_OK);
}

int dcgmModuleGetStatuses(dcgmHandle_t h, dcgmModuleGetStatuses_v1 *req) {
    ENTER("dcgmModuleGetStatuses");
    NEED_HANDLE(h);
    if (!req || req->version != MAKE_DCGM_VERSION(dcgmModuleGetStatuses_v1, 1)) LEAVE(ST_VER_MISMATCH);
    req->numStatuses = 2;
    req->statuses[0].id = 0; req->statuses[0].status = 3;
    req->statuses[1].id = 8; req->statuses[1].status = module_profiling;
    LEAVE(ST_OK);
}
