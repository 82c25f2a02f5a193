// The framework floor of a storefront page: the libraries every first load needs, each whole (a module
// shared through Module Federation cannot be tree-shaken), in one bundle with the federation runtime of a
// host. Kept alive through a global so the minifier drops nothing.
import * as react from 'react';
import * as reactDomClient from 'react-dom/client';
import * as reactRouter from 'react-router';
import * as jotai from 'jotai';
import * as reactToastify from 'react-toastify';

globalThis.__firstLoadFloor = [react, reactDomClient, reactRouter, jotai, reactToastify];
