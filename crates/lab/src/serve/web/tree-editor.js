// Trees of one's own (to come).
"use strict";
