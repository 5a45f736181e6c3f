/* worker.h - the web app's engine: a pool of worker threads, one per thinking game,
 * at most a few searching at once (worker.c tells the memory it takes). A WebWorkers
 * is that pool: its lock, its counts, and the store its workers save each move to.
 * Below it are the store, the game object and its clock; nothing below calls it. */
#ifndef WEB_WORKER_H
#define WEB_WORKER_H

#include "app/web/games/store.h"

typedef struct {
    const WebStore *store; /* where a worker's move is saved */
    atomic_bool closing;
    atomic_int kept_copies; /* copies with (or about to get) tables */
    pthread_mutex_t lock;
    pthread_cond_t change;
    int workers;   /* worker threads alive */
    int searching; /* of them, searching now */
    int most_searching, most_kept;
    uint64_t node_cap; /* the most nodes any one search of this server takes; 0 = none
                        * (the server leaves it 0; a fuzz harness caps it for volume) */
} WebWorkers;

void web_workers_init(WebWorkers *ww, const WebStore *store);
void web_workers_destroy(WebWorkers *ww); /* after web_worker_close(ww, true) */
/* Starts the engine on w (its lock held); false with the reason in *e. */
bool web_worker_start(WebWorkers *ww, WebGame *w, int level, int movetime_ms, WebError *e);
void web_worker_wake(WebWorkers *ww); /* queued workers look at their cancel flag again */
/* Waits until no worker runs on w (stop_engine: drop its move) and no write is under
 * way (w's lock held). */
void web_worker_wait_idle(WebWorkers *ww, WebGame *w, bool stop_engine);
/* No new workers from now; with wait, also waits until the running ones end. */
void web_worker_close(WebWorkers *ww, bool wait);
cJSON *web_worker_stats(WebWorkers *ww); /* tables in use and their bound */

#endif
